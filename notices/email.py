"""The e-mail channel, fed from ``Notification`` rows whose ``email`` is ``pending``.

``deliver(user_id)`` sends what is due for one person, in their language, plain text and
HTML, with a one-click unsubscribe link and the ``List-Unsubscribe`` /
``List-Unsubscribe-Post`` headers (RFC 8058):

- every "your turn" notice still valid (the table still at that turn, the notice unread,
  the turn not seen since it began: ``services.notice_seen``) goes in ONE e-mail naming
  each table and its deadline, at most one such e-mail per
  ``TURN_EMAIL_MIN_INTERVAL_SECONDS`` (the rest wait);
- the deadline reminders (R27) due now go in one e-mail, always (not held by quiet hours
  or the interval);
- each match's end goes in its own e-mail, and so does each rematch offered (while the
  offer still waits for the player's answer).

Outside the reminder, whether the player saw it is decided when it is due, not when the
notice was written: seen since it happened, it is skipped; at the table now (a look before
it happened), it waits until they count as away. Nothing goes during the player's quiet
hours either: it stays pending and the beat task (``notices.tasks.deliver_emails``) sends
it once they end. Rows are claimed
(``sending``) under a row lock before anything is sent, so a retried or duplicated task
never sends twice; a refused address is recorded as ``failed``; any other failure puts the
claim back and is raised, for the task to retry. Each e-mail is also recorded per table
and recipient as an ``EmailDelivery`` (``tables.services.deliveries``), the record the
admin and the fault tests read, with the moment the mail server took it (``sent_at``)
written before anything else: a claim left ``sending`` past ``DELIVERY_LEASE_SECONDS``
(the process died, the database dropped) is finished by ``reclaim`` (the beat's
``notices.tasks.reclaim_deliveries``): sent when the server had taken it, else sent
again, once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from smtplib import SMTPRecipientsRefused
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime

from accounts.time_zones import zone_named
from core import metrics
from notices import selectors, services
from notices.models import Notification
from tables.services import deliveries

logger = logging.getLogger(__name__)

Kind = Notification.Kind
Email = Notification.Email

#: ``django.core.signing`` salt of the unsubscribe links.
UNSUBSCRIBE_SALT = "notices.unsubscribe"


def site_url(path: str) -> str:
    """``path`` on the public site (``SITE_URL``)."""
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A signed token that turns off e-mails of ``kind`` for user ``user_id``."""
    return signing.dumps([user_id, kind], salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """``(user_id, kind)`` from ``unsubscribe_token``; raises ``signing.BadSignature``
    for a forged or damaged token, ``ValueError`` for a kind with no e-mail switch."""
    user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if kind not in services.NoticePreferences.EMAIL_KINDS:
        raise ValueError(kind)
    return int(user_id), kind


def in_quiet_hours(preferences, now: datetime) -> bool:
    """Whether ``now`` falls in the player's quiet hours (their local time)."""
    start, end = preferences.quiet_start, preferences.quiet_end
    if start is None or end is None or start == end:
        return False
    local = now.astimezone(_zone(preferences)).time()
    return start <= local < end if start < end else local >= start or local < end


def quiet_hours_end(preferences, now: datetime) -> datetime:
    """When the quiet hours ``now`` falls in end: the next ``quiet_end`` of the player's
    local day after ``now`` (an aware datetime)."""
    zone = _zone(preferences)
    local = now.astimezone(zone)
    end = datetime.combine(local.date(), preferences.quiet_end, tzinfo=zone)
    if end <= local:
        end = datetime.combine(local.date() + timedelta(days=1), preferences.quiet_end, zone)
    return end


def _zone(preferences) -> ZoneInfo:
    return zone_named(preferences.time_zone)


def _still_valid(notice: Notification, now: datetime) -> bool:
    """A "your turn" or reminder notice is worth mailing only while that turn is on; a
    rematch offer while its table still waits for the answers."""
    table = notice.table
    if notice.kind == Kind.REMATCH_OFFERED:
        return table.status == "waiting"
    if table.status != "playing" or str(table.version) != notice.key:
        return False
    if notice.kind == Kind.YOUR_TURN:
        return notice.read_at is None
    return table.deadline is not None and table.deadline > now


#: The hardening's per-recipient record (``tables.models.EmailDelivery``) of each kind.
DELIVERY_KIND = {
    Kind.YOUR_TURN: "turn",
    Kind.REMINDER: "reminder",
    Kind.MATCH_OVER: "match_over",
    Kind.REMATCH_OFFERED: "rematch",
}


def deliver(user_id: int, now: datetime | None = None) -> int:
    """Send user ``user_id`` the e-mails due now; returns how many went out."""
    now = now or timezone.now()
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return 0
    preferences = services.preferences_for(user)
    messages = _claim(user, preferences, now)
    sent = 0
    for index, (template, kind, notices) in enumerate(messages):
        try:
            went = _send_recorded(user, preferences, template, kind, notices)
        except BaseException:
            # Put back the claims of what has not gone out, for the task's retry (a mail
            # the server took stays ``sending``: reclaim_deliveries marks it sent).
            rest = [
                n.pk
                for _t, _k, batch in messages[index:]
                for n in batch
                if not getattr(n, "accepted", False)
            ]
            Notification.objects.filter(pk__in=rest, email=Email.SENDING).update(
                email=Email.PENDING
            )
            raise
        sent += went
        if kind == Kind.YOUR_TURN and went:  # (nothing went: the interval does not start)
            preferences.last_turn_email_at = now
            preferences.save(update_fields=["last_turn_email_at"])
    return sent


def _claim(user, preferences, now: datetime) -> list[tuple[str, str, list[Notification]]]:
    """Lock ``user``'s pending notices due by ``now``, mark the ones no longer worth an
    e-mail ``skipped`` and the ones to send now ``sending``; returns the e-mails to send,
    ``(template, kind, notices)``: one for every turn waiting, one for the reminders, one
    per match that ended. Seen since it happened (``services.notice_seen``), it is
    skipped. What waits (the player at the table, quiet hours, the turn e-mails' interval)
    stays pending, due again when it may go (when they count as away, the end of the quiet
    hours, the interval's): the
    beat task reads the oldest due first, a batch a run, and a backlog held back would
    otherwise fill every batch."""
    with transaction.atomic():
        due = list(
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(recipient=user, email=Email.PENDING, email_due_at__lte=now)
            .select_related("table")
            .order_by("created_at", "pk")
        )
        wanted = {kind: services.wants_email(user, kind) for kind in preferences.EMAIL_KINDS}
        skipped, batches = [], {kind: [] for kind in DELIVERY_KIND}
        held: dict[datetime, list[int]] = {}
        for notice in due:
            if not wanted.get(notice.kind):
                skipped.append(notice.pk)
            elif notice.kind != Kind.MATCH_OVER and not _still_valid(notice, now):
                skipped.append(notice.pk)
            elif services.notice_seen(notice):  # they saw it since it happened
                skipped.append(notice.pk)
            elif there := services.present_until(notice, now):
                held.setdefault(there, []).append(notice.pk)  # their page shows it, or they leave
                metrics.count_notice("email", "skipped-present")
            else:
                batches[notice.kind].append(notice)
        if in_quiet_hours(preferences, now):
            until = held.setdefault(quiet_hours_end(preferences, now), [])
            for kind in (Kind.YOUR_TURN, Kind.MATCH_OVER, Kind.REMATCH_OFFERED):
                until += [n.pk for n in batches[kind]]
                metrics.count_notice("email", "skipped-quiet", len(batches[kind]))
                batches[kind] = []
        last = preferences.last_turn_email_at
        interval = timedelta(seconds=settings.TURN_EMAIL_MIN_INTERVAL_SECONDS)
        if last is not None and now - last < interval and batches[Kind.YOUR_TURN]:
            # they wait for the interval to pass
            held.setdefault(last + interval, []).extend(n.pk for n in batches[Kind.YOUR_TURN])
            metrics.count_notice("email", "skipped-interval", len(batches[Kind.YOUR_TURN]))
            batches[Kind.YOUR_TURN] = []
        claimed = [n.pk for batch in batches.values() for n in batch]
        _write_claims(skipped, claimed, held, now)
    messages = []
    if batches[Kind.YOUR_TURN]:
        messages.append(("turns", Kind.YOUR_TURN, batches[Kind.YOUR_TURN]))
    if batches[Kind.REMINDER]:
        messages.append(("reminder", Kind.REMINDER, batches[Kind.REMINDER]))
    messages += [("match_over", Kind.MATCH_OVER, [n]) for n in batches[Kind.MATCH_OVER]]
    messages += [
        ("rematch_offered", Kind.REMATCH_OFFERED, [n]) for n in batches[Kind.REMATCH_OFFERED]
    ]
    return messages


def _write_claims(
    skipped: list[int], claimed: list[int], held: dict[datetime, list[int]], now: datetime
) -> None:
    """``_claim``'s writes: the ``skipped`` notices (ids) marked so (and counted,
    ``core.metrics``), the ``claimed`` ones ``sending``, each held one due again at its
    time (``held``: due time -> ids)."""
    Notification.objects.filter(pk__in=skipped).update(email=Email.SKIPPED)
    metrics.count_notice("email", "skipped", len(skipped))
    Notification.objects.filter(pk__in=claimed).update(email=Email.SENDING, email_claimed_at=now)
    for until, waiting in held.items():
        if waiting:
            Notification.objects.filter(pk__in=waiting).update(email_due_at=until)


def _send_recorded(user, preferences, template: str, kind: str, notices) -> int:
    """Send one e-mail about ``notices`` (claimed), recording it per table in
    ``EmailDelivery`` first (a table whose delivery was already recorded is left out:
    never twice). Returns 1 when it went out, 0 when nothing was left or the server
    refused the address (recorded ``failed``, not retried). Any other failure before the
    server took the mail drops the delivery claims and is raised. Once it took it, that is
    written first (``deliveries_accepted``) and the notices are marked ``accepted``: a
    failure after it leaves them ``sending`` for ``reclaim_deliveries``, never to go
    twice."""
    claims = []
    try:
        for notice in notices:
            delivery = deliveries.delivery_claim(
                table=notice.table, recipient=user, kind=DELIVERY_KIND[kind], key=notice.key
            )
            claims.append((notice, delivery))
        left_out = [notice.pk for notice, delivery in claims if delivery is None]
        Notification.objects.filter(pk__in=left_out).update(email=Email.SKIPPED)
        metrics.count_notice("email", "skipped", len(left_out))
        claims = [(notice, delivery) for notice, delivery in claims if delivery is not None]
        if not claims:
            return 0
        notices = [notice for notice, _delivery in claims]
        _send(user, preferences, template, kind, notices)
    except SMTPRecipientsRefused as refused:
        for _notice, delivery in claims:
            deliveries.delivery_refused(delivery, str(refused.recipients))
        Notification.objects.filter(pk__in=[n.pk for n in notices]).update(email=Email.FAILED)
        logger.warning("%s mail refused for user %s", kind, user.pk)
        metrics.count_notice("email", "bounced", len(notices))
        return 0
    except BaseException:
        metrics.count_notice("email", "failed", len(claims))
        for _notice, delivery in claims:
            if delivery is not None:
                deliveries.delivery_release(delivery)
        raise
    deliveries.deliveries_accepted([delivery for _notice, delivery in claims])
    for notice in notices:
        notice.accepted = True
    for notice, delivery in claims:
        deliveries.delivery_sent(delivery)
        notice.email = Email.SENT
        notice.channels = [*notice.channels, "email"]
    Notification.objects.bulk_update(notices, ["email", "channels"])
    metrics.count_notice("email", "sent", len(notices))
    return 1


def _table_entry(notice: Notification, zone: ZoneInfo) -> dict:
    payload = notice.payload
    deadline = parse_datetime(payload["deadline"]) if payload.get("deadline") else None
    return {
        "id": notice.table_id,
        "url": site_url(reverse("tables:table", args=[notice.table_id])),
        "with_names": selectors.with_names(payload, notice.kind),
        "deadline": deadline.astimezone(zone) if deadline else None,
        "hand_seat": payload.get("hand_seat"),
        "payload": payload,
    }


def _send(user, preferences, template: str, kind: str, notices: list[Notification]) -> None:
    zone = _zone(preferences)
    unsubscribe = site_url(reverse("notices:unsubscribe", args=[unsubscribe_token(user.pk, kind)]))
    context = {
        "user": user,
        "notice": notices[0],
        "time_zone": str(zone),
        # Tables of one e-mail may differ in move time (R27): the shortest is told, and
        # the reminder's "less than N hours" names the longest lead (each has its deadline).
        "hours": min(notice.table.move_seconds for notice in notices) // 3600,
        "hours_left": max(notice.table.reminder_seconds for notice in notices) // 3600,
        "unsubscribe_url": unsubscribe,
        "settings_url": site_url(reverse("accounts:settings")),
    }
    # In the player's words and time zone: a template's dates ("Hasta el 6 mar 2030, 05:30
    # (America/Havana)") are written in the active zone, whatever zone a value was given in.
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(zone):
        context["tables"] = [_table_entry(notice, zone) for notice in notices]  # their words
        subject = render_to_string(f"notices/email/{template}_subject.txt", context)
        subject = " ".join(subject.split())
        # "Dominó · Te toca jugar en la mesa 12", as the account e-mails' subjects; the HTML
        # part's <title> is that subject.
        context["subject"] = f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{subject}"
        text = render_to_string(f"notices/email/{template}.txt", context)
        html = render_to_string(f"notices/email/{template}.html", context)
    message = EmailMultiAlternatives(
        context["subject"],
        text,
        None,
        [user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    message.send()


#: The notice kind of each ``EmailDelivery`` kind.
NOTICE_KIND = {delivery: notice for notice, delivery in DELIVERY_KIND.items()}


def reclaim(now: datetime | None = None) -> int:
    """Finish the e-mails a process left ``sending`` longer than ``DELIVERY_LEASE_SECONDS``
    ago (it died, or lost its database, between the claim and the end), each sent once:

    - a delivery the mail server took (``sent_at``) is marked ``sent``, and so are its
      notices: nothing is sent again;
    - any other delivery is dropped and its notices (``sending``, or ``skipped`` because
      that claim was under way) are pending again, due now;
    - a notice left ``sending`` with no delivery (the claim stopped before it) is pending
      again; one whose delivery was finished takes its state.

    Then what became pending is sent (``deliver``: still valid, not seen, not in quiet
    hours). Returns how many e-mails went out."""
    now = now or timezone.now()
    again: set[int] = set()
    for delivery in deliveries.deliveries_reclaim(now):
        rows = Notification.objects.filter(
            recipient_id=delivery.recipient_id,
            table_id=delivery.table_id,
            kind=NOTICE_KIND[delivery.kind],
            key=delivery.key,
        )
        if delivery.sent_at is not None:
            for notice in rows.filter(email__in=[Email.SENDING, Email.PENDING, Email.SKIPPED]):
                _mark_sent(notice)
        else:
            rows.filter(email__in=[Email.SENDING, Email.SKIPPED]).update(
                email=Email.PENDING, email_due_at=now
            )
            again.add(delivery.recipient_id)
    since = now - timedelta(seconds=settings.DELIVERY_LEASE_SECONDS)
    stuck = Notification.objects.filter(email=Email.SENDING).filter(
        Q(email_claimed_at__lt=since) | Q(email_claimed_at__isnull=True)
    )
    for notice in list(stuck.order_by("email_claimed_at")[:200]):
        delivery = deliveries.delivery_of(
            table_id=notice.table_id,
            recipient_id=notice.recipient_id,
            kind=DELIVERY_KIND[notice.kind],
            key=notice.key,
        )
        if delivery is None:
            notice.email, notice.email_due_at = Email.PENDING, now
            notice.save(update_fields=["email", "email_due_at"])
            again.add(notice.recipient_id)
        elif delivery.sent_at is not None:
            _mark_sent(notice)
        elif delivery.status == delivery.Status.FAILED:
            notice.email = Email.FAILED
            notice.save(update_fields=["email"])
    return sum(deliver(user_id, now) for user_id in sorted(again))


def _mark_sent(notice: Notification) -> None:
    notice.email = Email.SENT
    if "email" not in notice.channels:
        notice.channels = [*notice.channels, "email"]
    notice.save(update_fields=["email", "channels"])
