"""Background work for notices (Celery). The ``record_*`` tasks are queued by this app's
subscribers to the table events (``notices.subscribers``) once a write commits; each takes
ids, re-reads and writes the notices (once: a retried or repeated task writes nothing
twice), then sends what is due now. ``deliver_emails`` (Celery beat, every minute) sends
the delayed ones: the debounced "your turn" e-mails and what waited for quiet hours to end.
"""

from __future__ import annotations

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from core import metrics
from core.faults import TASK_RETRY
from notices import email, push, seating, services
from notices.models import Notification
from tables.models import Table
from tables.services import reminder_mark

#: Retries on a transient fault: 1, 2, 4, ... seconds apart (jittered), at most 5 minutes.
RETRY = {"retry_backoff": True, "retry_backoff_max": 300, "retry_jitter": True, "max_retries": 6}
#: Sending e-mail also retries when the SMTP server cannot be reached (``OSError``).
MAIL_RETRY = (*TASK_RETRY, OSError)


def send_what_is_due(notices, now=None) -> None:
    """After ``notices`` were written: push each (unless the player is at the table, or
    in quiet hours: then the beat task does later, if they have not seen it by then) and
    e-mail what is due now (reminders, the end of a match; a "your turn" e-mail waits for
    the beat task)."""
    now = now or timezone.now()
    for notice in notices:
        push.mark_wanted(notice)
        push.deliver(notice.pk, now)
    due = [n for n in notices if n.email == Notification.Email.PENDING and n.email_due_at <= now]
    for user_id in dict.fromkeys(notice.recipient_id for notice in due):
        email.deliver(user_id, now)


def _deliver_pending(table_id: int, kind: str) -> int:
    """Send the e-mails due to everyone with a pending ``kind`` notice at the table (a
    retried task reaches whoever the first run did not)."""
    people = (
        Notification.objects.filter(table_id=table_id, kind=kind, email=Notification.Email.PENDING)
        .values_list("recipient_id", flat=True)
        .order_by("recipient_id")
        .distinct()
    )
    return sum(email.deliver(user_id) for user_id in list(people))


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def record_turn(table_id: int, version: int) -> bool:
    """A human's turn began at ``table_id`` (``version``): their "your turn" notice (its
    e-mail waits ``TURN_EMAIL_DELAY_SECONDS``)."""
    notice = services.record_turn(table_id=table_id, version=version)
    if notice is not None:
        send_what_is_due([notice])
    return notice is not None


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def record_match_over(table_id: int, closed_by: int | None = None) -> int:
    """The match at ``table_id`` ended: everyone's notice, and the e-mails, now.
    ``closed_by``: the seat whose player cancelled the table before it started."""
    notices = services.record_match_over(table_id=table_id, closed_by=closed_by)
    if notices:  # written once per match: a retry writes none and counts nothing
        _count_match_over(table_id)
    send_what_is_due(notices)
    _deliver_pending(table_id, Notification.Kind.MATCH_OVER)  # a retry: whoever is left
    return len(notices)


def _count_match_over(table_id: int) -> None:
    """Count the match at ``table_id`` among the finished (``core.metrics``)."""
    ended = Table.objects.filter(pk=table_id).values_list("rules", "seats", "outcome").first()
    if ended is not None:
        rules, seats, outcome = ended
        metrics.MATCHES_FINISHED.labels(rules, str(seats), outcome or "none").inc()


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def record_hand_over(table_id: int, hand_number: int) -> int:
    """A hand ended at ``table_id`` and the match goes on: everyone's notice."""
    notices = services.record_hand_over(table_id=table_id, hand_number=hand_number)
    send_what_is_due(notices)
    return len(notices)


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def record_seat_taken(table_id: int, user_id: int) -> int:
    """Someone took a seat through an invite: the others' notices (and the start's)."""
    notices = seating.record_seat_taken(table_id=table_id, user_id=user_id)
    send_what_is_due(notices)
    return len(notices)


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def record_seat_left(table_id: int, user_id: int, name: str, seat_index: int, version: int) -> int:
    """A guest gave up their seat at a waiting table: the others' notices, pushed to
    whoever wants ``seat_left`` pushed and is not at the table (no e-mail, as for the
    other seating notices); a retry writes and pushes nothing more."""
    notices = seating.record_seat_left(
        table_id=table_id, user_id=user_id, name=name, seat_index=seat_index, version=version
    )
    send_what_is_due(notices)
    return len(notices)


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def record_rematch_offered(table_id: int) -> int:
    """A rematch was asked for (``table_id`` is the new table): each person offered a
    seat gets their notice, its e-mail and push now."""
    notices = services.record_rematch_offered(table_id=table_id)
    send_what_is_due(notices)
    _deliver_pending(table_id, Notification.Kind.REMATCH_OFFERED)  # a retry: whoever is left
    return len(notices)


#: How many due tables one reminder sweep handles (as the table sweeps' ``SWEEP_BATCH``);
#: the next sweep takes the rest.
REMINDER_BATCH = 200


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def sweep_reminders(batch: int = REMINDER_BATCH) -> int:
    """Remind the player to move when ``REMINDER_SECONDS`` of their time are left (R27),
    or half their table's move time if that is less (``tables.move_time``: 12 h at a
    1-day table), once per turn: the turn's ``reminder`` notice is written (once per turn:
    ``services.record_reminder``), the turn is marked with ``reminded_version`` so later
    sweeps skip it (``tables.services.reminder_mark``), and each person reminded gets one
    e-mail covering every table reminded in this sweep (recorded per recipient and
    table). A sweep that dies in between is safe to run again: the next one sends what is
    still pending. Returns how many reminder notices were written."""
    now = timezone.now()
    written = []
    with metrics.sweep_run("reminders") as found:
        due = list(due_reminders(now, batch))
        found(len(due))
        for table_id, version in due:
            notice = services.record_reminder(table_id=table_id, version=version, now=now)
            if notice is not None:
                written.append(notice)
            reminder_mark(table_id=table_id, version=version)
        send_what_is_due(written, now)
    return len(written)


def due_reminders(now, batch: int = REMINDER_BATCH):
    """``(id, version)`` of at most ``batch`` playing tables whose turn's reminder is due
    (``remind_at``, set at the turn's start: 24 h before the deadline, or half the move
    time if that is less) and not sent yet, its deadline still ahead, the longest due
    first: a range of the partial index ``table_reminder_due`` on ``remind_at``, which
    leaves the reminded turns out (half the running tables are inside the last 24 h at
    any time). No other index holds ``remind_at``, so whatever the statistics say the
    planner cannot trade it for the absence sweep's index on ``deadline`` and read every
    reminded turn."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, remind_at__lte=now, deadline__gt=now)
        .exclude(reminded_version=F("version"))
        .values_list("pk", "version")
        .order_by("remind_at")[:batch]
    )


#: How many due e-mail notices one ``deliver_emails`` run reads (as the table sweeps'
#: ``SWEEP_BATCH``): the run's cost follows the batch, not the backlog; the rest goes in
#: the next runs (every minute), oldest due first.
EMAIL_BATCH = 200


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def deliver_emails(batch: int = EMAIL_BATCH) -> int:
    """Send the e-mails that have come due (debounced turns, the quiet-hours backlog) to
    the people of the ``batch`` notices due longest (``due_email_recipients``), one person
    at a time: all of that person's due e-mails. Returns how many e-mails went out."""
    now = timezone.now()
    with metrics.sweep_run("deliver_emails") as found:
        due = due_email_recipients(now, batch)
        found(len(due))
        return sum(email.deliver(user_id, now) for user_id in due)


def due_email_recipients(now, batch: int = EMAIL_BATCH) -> list[int]:
    """The people with an e-mail come due by ``now``, oldest due first, each once: the
    recipients of the first ``batch`` pending notices in a range of the partial index
    ``notification_email_due`` read up to its LIMIT (at most ``batch`` people, fewer when
    one has several due). What a person's quiet hours or the turn e-mails' interval hold
    back is due again only when it may go (``email.deliver``), so it fills no batch."""
    return list(dict.fromkeys(due_email_notices(now, batch)))


def due_email_notices(now, batch: int = EMAIL_BATCH):
    """The recipients (ids, repeated) of the ``batch`` pending e-mail notices due longest
    by ``now``: the query ``due_email_recipients`` runs (its plan: ``bench/world_bench.py``,
    tests/tasks/test_sweep_plans.py)."""
    return (
        Notification.objects.filter(email=Notification.Email.PENDING, email_due_at__lte=now)
        .order_by("email_due_at")
        .values_list("recipient_id", flat=True)[:batch]
    )


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def deliver_pushes() -> int:
    """Push every notice whose push waited (quiet hours ended since, or the player, at
    the table when it happened, has left without seeing it). Returns to how many devices
    pushes went."""
    now = timezone.now()
    return sum(push.deliver(notice_id, now) for notice_id in list(waiting_pushes()))


def waiting_pushes(batch: int = 500):
    """The ids of at most ``batch`` notices whose push waits (quiet hours, presence): the
    partial index ``notification_push_due``."""
    return Notification.objects.filter(push=Notification.Email.PENDING).values_list(
        "pk", flat=True
    )[:batch]


@shared_task(autoretry_for=MAIL_RETRY, **RETRY)
def reclaim_deliveries() -> int:
    """Celery beat (every 5 minutes): finish what a process left ``sending`` longer than
    ``DELIVERY_LEASE_SECONDS`` ago, each once: e-mails (``email.reclaim``: sent when the
    mail server had taken them, else sent again) and pushes (``services.pushes_reclaim``:
    sent when a push service had taken them, else pushed again); and mark read the "your
    turn" notices whose turn is over (``services.stale_turns_read``). Returns how many
    e-mails and devices were reached again."""
    now = timezone.now()
    services.stale_turns_read(now)
    mails = email.reclaim(now)
    return mails + sum(push.deliver(notice_id, now) for notice_id in services.pushes_reclaim(now))
