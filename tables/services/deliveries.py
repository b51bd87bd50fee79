"""The record of each e-mail to each person (``EmailDelivery``): claimed before it is
sent, so a retried or duplicated task never sends it twice, its acceptance by the mail
server written at once (``sent_at``), then marked sent or failed; a claim left behind is
reclaimed after ``DELIVERY_LEASE_SECONDS``.
``notices.email`` writes the mails and asks these for every write."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from tables.models import EmailDelivery, Table


def delivery_claim(*, table: Table, recipient, kind: str, key: str) -> EmailDelivery | None:
    """Claim mail ``kind`` to ``recipient`` for ``(table, kind, key)`` (``key``: the table
    version of a turn or a reminder, ``""`` for the end of the match): the new row, status
    ``sending``; ``None`` when it was sent, failed or is under way (never twice)."""
    try:
        with transaction.atomic():
            return EmailDelivery.objects.create(
                table=table, recipient=recipient, kind=kind, key=key
            )
    except IntegrityError:
        return None


def deliveries_accepted(deliveries: list[EmailDelivery]) -> None:
    """The mail server took the mail of ``deliveries`` (one e-mail): ``sent_at`` now, in
    one UPDATE written before anything else is marked, so a claim left ``sending`` after
    this (``deliveries_reclaim``) is known to have gone and is never sent again."""
    now = timezone.now()
    EmailDelivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(sent_at=now)
    for delivery in deliveries:
        delivery.sent_at = now


def delivery_sent(delivery: EmailDelivery) -> None:
    """The mail went out: status ``sent`` (``sent_at`` kept from ``deliveries_accepted``,
    else now)."""
    delivery.status = EmailDelivery.Status.SENT
    delivery.sent_at = delivery.sent_at or timezone.now()
    delivery.save(update_fields=["status", "sent_at"])


def deliveries_reclaim(now=None, batch: int = 200) -> list[EmailDelivery]:
    """The claims left ``sending`` longer than ``DELIVERY_LEASE_SECONDS`` (a process died
    or lost its database between the claim and the end), at most ``batch``, oldest first
    (the partial index ``email_delivery_sending``): each one the mail server took
    (``sent_at``) is marked ``sent``; any other is deleted, so that its mail can be sent
    again. Returns them, ``status`` saying which (``sent``, or ``sending``: deleted)."""
    since = (now or timezone.now()) - timedelta(seconds=settings.DELIVERY_LEASE_SECONDS)
    stuck = EmailDelivery.objects.filter(status=EmailDelivery.Status.SENDING, created_at__lt=since)
    rows = list(stuck.order_by("created_at")[:batch])
    for delivery in rows:
        if delivery.sent_at is not None:
            delivery_sent(delivery)
        else:
            EmailDelivery.objects.filter(pk=delivery.pk, sent_at__isnull=True).delete()
    return rows


def delivery_of(*, table_id: int, recipient_id: int, kind: str, key: str) -> EmailDelivery | None:
    """The delivery record of mail ``kind`` for ``(table, recipient, key)``, if any."""
    rows = EmailDelivery.objects.filter(
        table_id=table_id, recipient_id=recipient_id, kind=kind, key=key
    )
    return rows.first()


def delivery_refused(delivery: EmailDelivery, error: str) -> None:
    """The server refused the address: status ``failed`` (never retried), ``error`` its
    answer (cut to 200 characters)."""
    delivery.status = EmailDelivery.Status.FAILED
    delivery.error = error[:200]
    delivery.save(update_fields=["status", "error"])


def delivery_release(delivery: EmailDelivery) -> None:
    """The send failed before reaching the server: drop the claim, so a retry sends it."""
    delivery.delete()


#: ``deliveries_forget`` deletes at most this many rows a statement (short locks).
FORGET_BATCH = 5000


def deliveries_forget(now=None) -> int:
    """Delete the delivery records older than ``EMAIL_DELIVERY_SECONDS`` (30 days unless
    configured): they guard against a task retried or run twice, which happens within
    minutes; kept for ever they would grow by several rows per player and day. Deletes
    ``FORGET_BATCH`` rows a statement, oldest first, through the index on ``created_at``.
    Returns how many were deleted."""
    since = (now or timezone.now()) - timedelta(seconds=settings.EMAIL_DELIVERY_SECONDS)
    deleted = 0
    while True:
        batch = EmailDelivery.objects.filter(created_at__lt=since).order_by("created_at")
        ids = list(batch.values_list("pk", flat=True)[:FORGET_BATCH])
        if not ids:
            return deleted
        deleted += EmailDelivery.objects.filter(pk__in=ids).delete()[0]
