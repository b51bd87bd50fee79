"""E-mails to players: your turn, a reminder with 24 hours left, the end of a match.

Each is written in the player's language (``User.language``) and sent only to players who
keep ``email_notifications`` on and have verified their address (issue 17). Django's
e-mail framework sends them (console backend by default, SMTP from ``EMAIL_URL``).

Every mail is one delivery to one person, recorded as an ``EmailDelivery`` row (table,
recipient, kind, key) before it is sent: a retried or duplicated task, or a batch re-run
after a crash, never sends it again, and a refused address is recorded as failed without
touching the others' deliveries.
"""

from __future__ import annotations

import logging
from smtplib import SMTPRecipientsRefused

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.selectors import verified_email
from dominoes import match_from_dict
from tables import services
from tables.models import Seat, Table
from tables.seating import holds_two_hands

logger = logging.getLogger(__name__)


def _wants_mail(user) -> bool:
    # Only to an address the player has verified (issue 17): never a stranger's inbox.
    return bool(user and user.is_active and user.email_notifications and verified_email(user))


def _table_url(table: Table) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("tables:table", args=[table.pk])


def _turn_context(seat: Seat, table: Table) -> dict:
    """What the turn and reminder mails say; ``hand_seat`` (1-based) names the hand to
    play when the player holds two (``seven_plus_seven``), else ``None``."""
    return {
        "user": seat.user,
        "table": table,
        "url": _table_url(table),
        "hours": settings.ABSENCE_SECONDS // 3600,
        "hours_left": settings.REMINDER_SECONDS // 3600,
        "hand_seat": seat.index + 1 if holds_two_hands(table.rules) else None,
    }


def _send(user, template: str, context: dict) -> None:
    with translation.override(user.language):
        subject = render_to_string(f"tables/email/{template}_subject.txt", context).strip()
        body = render_to_string(f"tables/email/{template}.txt", context)
    send_mail(subject, body, None, [user.email])


def _deliver(table: Table, user, kind: str, key: str, context: dict) -> bool:
    """Send mail ``kind`` (its template's name) to ``user`` once for ``(table, kind,
    key)``. Returns True when it went out now; False when it was already sent, is being
    sent by another worker, or the server refused the address (recorded as failed, logged,
    never retried). Any other failure (the SMTP server or the database is down) removes
    the claim and is raised, so that the task retries this recipient and only the ones
    not yet sent."""
    delivery = services.delivery_claim(table=table, recipient=user, kind=kind, key=key)
    if delivery is None:
        return False  # sent, failed, or under way: never twice
    try:
        _send(user, kind, context)
    except SMTPRecipientsRefused as refused:
        services.delivery_refused(delivery, str(refused.recipients))
        logger.warning("%s mail for table %s refused for user %s", kind, table.pk, user.pk)
        return False
    except BaseException:
        services.delivery_release(delivery)
        raise
    services.delivery_sent(delivery)
    return True


def _once(items) -> list:
    """``items`` without repeats, in order (a two-seat player's name appears once)."""
    return list(dict.fromkeys(items))


def _turn_seat(table: Table) -> Seat | None:
    if table.turn_seat is None:
        return None
    return Seat.objects.filter(table=table, index=table.turn_seat).select_related("user").first()


def send_turn(table_id: int, version: int) -> bool:
    """Mail the seat to act that its turn began; False when the table moved on, the seat
    is a bot, or the player turned e-mails off."""
    table = Table.objects.filter(pk=table_id, version=version, status="playing").first()
    seat = _turn_seat(table) if table else None
    if seat is None or seat.bot or not _wants_mail(seat.user):
        return False
    return _deliver(table, seat.user, "turn", str(version), _turn_context(seat, table))


def send_reminder(table_id: int, version: int) -> bool:
    """Mail the seat to act that its deadline is near (R27)."""
    table = Table.objects.filter(pk=table_id, version=version, status="playing").first()
    seat = _turn_seat(table) if table else None
    if seat is None or seat.bot or not _wants_mail(seat.user):
        return False
    return _deliver(table, seat.user, "reminder", str(version), _turn_context(seat, table))


def send_match_over(table_id: int) -> int:
    """Mail every human at a finished table the result and the reason; returns how many
    went out now. A person holding two seats (``seven_plus_seven``) gets one e-mail, and
    each name is listed once. Safe to run again: whoever already got it (or was refused)
    is skipped."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.is_active:
        return 0
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    winners = _once(seat.display_name for seat in seats if seat.index in (table.winners or []))
    left = match_from_dict(table.state).abandoned_by if table.state is not None else None
    left_name = seats[left].display_name if left is not None else ""
    scores = _once((s.display_name, s.score) for s in seats if not s.is_open)
    sent = 0
    mailed: set[int] = set()
    for seat in seats:
        if seat.bot or not _wants_mail(seat.user) or seat.user_id in mailed:
            continue
        mailed.add(seat.user_id)
        context = {
            "user": seat.user,
            "table": table,
            "url": _table_url(table),
            "won": seat.index in (table.winners or []),
            "winners": winners,
            "left": left_name,
            "started": table.state is not None,
            "scores": scores,
        }
        sent += _deliver(table, seat.user, "match_over", "", context)
    return sent
