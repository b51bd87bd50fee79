"""Writes on accounts. Keyword-only, used by both the API and the pages.

Sign-up, sign-in, verification and password flows are django-allauth's (forms in
``accounts.forms``, fitted by ``accounts.adapter``); this module holds what the site adds:
tokens, signing out everywhere, deleting an account and the data export.
"""

from __future__ import annotations

from allauth.account import signals as allauth_signals
from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from django.contrib.auth import update_session_auth_hash
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from accounts.models import User
from moderation.models import Report, TalkMessage
from notices.models import Notification
from tables import selectors as table_selectors
from tables import services as table_services
from tables.errors import TableError
from tables.models import Seat, Table


def signup_complete(*, request: HttpRequest, user: User) -> None:
    """After an API sign-up (``accounts.forms.SignupForm.save``): allauth's signal and
    the verification link to the new address (no session: the app uses its token)."""
    allauth_signals.user_signed_up.send(sender=User, request=request, user=user)
    address = EmailAddress.objects.filter(user=user, primary=True).first()
    if address is not None:
        send_verification_email_to_address(request, address, signup=True)


def token_for(*, user: User) -> str:
    """The user's API token, created on first use (one token per user)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def user_set_language(*, user: User, language: str) -> User:
    """Save ``language`` (a ``User.Language`` value: ``"es"`` or ``"en"``) as the player's
    language, the one pages without a cookie and e-mails use. Raises ``ValueError`` for
    another value."""
    if language not in User.Language.values:
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user


def sign_out_everywhere(*, user: User, request: HttpRequest | None = None) -> None:
    """End every session of ``user`` (``User.session_generation`` + 1 changes the hash
    Django checks on each request) and delete the API token. With ``request`` (the
    settings page) that session stays signed in."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
        Token.objects.filter(user=user).delete()
    user.refresh_from_db(fields=["session_generation"])
    if request is not None and request.user.is_authenticated and request.user.pk == user.pk:
        update_session_auth_hash(request, user)


#: ``table_abandon``'s refusals that leave nothing to abandon at a table that changed
#: between listing it and locking it (another request, a worker): it ended (a move
#: finished the match, the idle close, the absence sweep, a moderator; or the player
#: already left a hand that goes on, ``first_double``): ``hand_over``; or the player is
#: no longer seated there (a guest who gave up a waiting table's seat, ``seat_leave``, in
#: another request just before): ``not_found``.
NOTHING_TO_ABANDON = frozenset({"hand_over", "not_found"})


def active_table_ids(user: User) -> list[int]:
    """The ids of the tables ``user`` sits at that are waiting or playing, in order."""
    return list(
        Table.objects.filter(seat_set__user=user, status__in=table_services.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )


def _renamed(value, name: str, placeholder: str):
    """``value`` (a notice's payload or a part of it) with every string equal to ``name``
    written ``placeholder``, in lists and dicts at any depth."""
    if isinstance(value, dict):
        return {key: _renamed(item, name, placeholder) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, name, placeholder) for item in value]
    return placeholder if value == name else value


def _unname_in_notices(user: User, table_ids: list[int]) -> None:
    """The other players' notices of the tables ``user`` sat at stop naming them: each
    payload's ``user.username`` becomes «jugador eliminado», as the tables' seats say it,
    in the recipient's language ("u05: 2 mensajes nuevos" reads "jugador eliminado: 2
    mensajes nuevos"). Notices are drawn from their payload whenever they are read or
    mailed, so the inbox, the API and a mail not yet sent all follow."""
    rows = (
        Notification.objects.filter(table_id__in=set(table_ids))
        .exclude(recipient=user)
        .select_related("recipient")
    )
    for row in rows:
        with translation.override(row.recipient.language or None):
            placeholder = gettext("jugador eliminado")
        payload = _renamed(row.payload, user.username, placeholder)
        if payload != row.payload:
            row.payload = payload
            row.save(update_fields=["payload"])


def account_delete(*, user: User) -> list[int]:
    """Delete ``user``'s account. First every active table the player sits at
    is abandoned through ``tables.services.table_abandon`` (R26: a playing table is lost
    by the player's side and the others are mailed; a waiting one is closed if they
    created it (or it is a rematch), else they give up their seat, which opens again; in
    ``first_double`` at 3-4 seats the player leaves and the hand goes on without them, as
    it does when they have already left). A table that ended or that they left after it
    was listed is skipped (``NOTHING_TO_ABANDON``). Then every
    seat they held keeps its place as «jugador eliminado» (``Seat.player_deleted``), and
    so do the other players' notices of those tables (``_unname_in_notices``), the
    tables they created lose their creator, and the user row goes with what hangs from it:
    e-mail addresses, API token, idempotency records. Finished tables' moves and hands are
    untouched, so their records still replay. Returns the ids of the tables abandoned.

    One transaction: either all of it happens or nothing does. Raises nothing of its own;
    an unexpected ``TableError`` from ``table_abandon`` goes up (and nothing happens)."""

    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        abandoned = []
        for table_id in active_table_ids(user):
            try:
                table_services.table_abandon(table_id=table_id, user=user)
            except TableError as refusal:
                if refusal.code not in NOTHING_TO_ABANDON:
                    raise
                continue
            abandoned.append(table_id)
        table_ids = list(Seat.objects.filter(user=user).values_list("table_id", flat=True))
        Seat.objects.filter(user=user).update(
            user=None, player_deleted=True, second_hand=False, invite_token=None
        )
        _unname_in_notices(user, table_ids)
        Table.objects.filter(creator=user).update(creator=None)
        user.delete()
    return abandoned


def account_export(*, user: User) -> dict:
    """Everything the service keeps about ``user``, as JSON-ready data: the profile, the
    e-mail addresses, every table (seats by name, status, scores), the record
    (``dominoes-record/1``) of every finished match, the talk messages they wrote (a
    removed one marked so; held ones too: they are the author's own) and the reports they
    made. Reports made about them are not theirs to read: their reporters stay unnamed.
    A running hand is never included: records hold finished hands only (R31)."""

    tables = []
    table_ids = Seat.objects.filter(user=user).values_list("table_id", flat=True).distinct()
    for table in Table.objects.filter(pk__in=table_ids).order_by("pk"):
        seats = Seat.objects.filter(table=table).select_related("user").order_by("index")
        entry = {
            "id": table.pk,
            "rules": table.rules,
            "seats": table.seats,
            "target": table.target,
            "status": table.status,
            "outcome": table.outcome,
            "created_at": table.created_at.isoformat(),
            "finished_at": table.finished_at.isoformat() if table.finished_at else None,
            "winners": table.winners,
            "your_seats": [seat.index for seat in seats if seat.user_id == user.pk],
            "players": [
                {"seat": seat.index, "name": seat.display_name, "score": seat.score}
                for seat in seats
            ],
        }
        if not table.is_active and table.state is not None:
            entry["record"] = table_selectors.table_record(table)
        tables.append(entry)
    return {
        "format": "domino-account-export/1",
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "language": user.language,
            "pip_colour": user.pip_colour,
            "email_notifications": user.email_notifications,
        },
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("-primary", "email")
        ],
        "tables": tables,
        "talk_messages": [
            {
                "table": message.table_id,
                "seat": message.seat,
                "text": message.text,
                "phrase": message.phrase,
                "created_at": message.created_at.isoformat(),
                "removed": message.removed_at is not None,
            }
            for message in TalkMessage.objects.filter(author=user).order_by("created_at", "pk")
        ],
        "reports_made": [
            {
                "table": report.table_id,
                "message": report.message_id,
                "reported": report.reported.username if report.reported_id else None,
                "reason": report.reason,
                "text": report.text,
                "status": report.status,
                "created_at": report.created_at.isoformat(),
            }
            for report in Report.objects.filter(reporter=user)
            .select_related("reported")
            .order_by("created_at", "pk")
        ],
    }
