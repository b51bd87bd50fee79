"""Background work (Celery): bot turns, a finished match's analysis, the outbox's relay,
the absence and idle sweeps. The players' notices, their e-mails and the reminder sweep
are ``notices.tasks``.

Tasks take ids (and the version they were scheduled for), re-read, and call
``tables.services``; a task that finds the table moved on does nothing, so a duplicated or
retried task never acts twice, and e-mails are recorded per recipient
(``EmailDelivery``, by ``notices.email``), so a retry sends only what has not gone out.
Every task retries, with exponential backoff, on a transient database or broker error
(``core.faults.TASK_RETRY``; the reminder sweep on SMTP connection errors too). The
sweeps run from Celery beat (``CELERY_BEAT_SCHEDULE``, kept in the database by
django-celery-beat so moderators can tune it in the admin).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from core import metrics
from core.faults import TASK_RETRY
from tables import services
from tables.models import Table
from tables.services import outbox

logger = logging.getLogger(__name__)

#: How many due tables one sweep handles; the next sweep takes the rest.
SWEEP_BATCH = 200
#: Retries on a transient fault: 1, 2, 4, ... seconds apart (jittered), at most 5 minutes.
RETRY = {"retry_backoff": True, "retry_backoff_max": 300, "retry_jitter": True, "max_retries": 6}


def _sweep(name: str, table_ids, rule, now) -> int:
    """Apply ``rule`` (a service taking ``table_id``, ``now``, ``skip_locked``) to each due
    table; one broken table is logged and does not stop the others. Returns how many the
    rule applied to here. A transient database error is raised, for the task to retry.
    Timed, with the rows found due, as sweep ``name`` (``core.metrics``)."""
    done = 0
    with metrics.sweep_run(name) as found:
        due = list(table_ids)
        found(len(due))
        for table_id in due:
            try:
                done += rule(table_id=table_id, now=now, skip_locked=True)
            except TASK_RETRY:
                raise  # the database is away: the task retries (tables done stay done)
            except Exception:  # one broken table must not stop the sweep; it is logged
                logger.exception("%s sweep failed for table %s", name, table_id)
    return done


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def bot_play(table_id: int, version: int) -> bool:
    """Play the bot's turn at ``table_id`` if the table is still at ``version`` (R16, R31)."""
    return services.bot_play(table_id=table_id, version=version)


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def analyse_match(analysis_id: int) -> bool:
    """Compute the analysis ``analysis_id`` of a finished match unless another
    run has it or did it (``services.analysis_run``: computed at most once)."""
    return services.analysis_run(analysis_id=analysis_id)


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def relay_table_events() -> int:
    """Celery beat (every 30 s): send the side effects whose send after their commit
    failed or never ran (``outbox.relay``: each table's in order, each row by one relay).
    Returns how many were sent."""
    with metrics.sweep_run("relay_table_events") as found:
        sent = outbox.relay()
        found(sent)
    return sent


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def sweep_table_events() -> int:
    """Forget the outbox rows delivered more than ``OUTBOX_KEEP_SECONDS`` ago (a day).
    Returns how many were deleted."""
    return outbox.forget_delivered()


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def sweep_absences(batch: int = SWEEP_BATCH) -> int:
    """Forfeit every table whose human seat has had the turn for more than
    ``ABSENCE_SECONDS`` (R27), oldest deadline first, at most ``batch`` per run.
    Returns how many were forfeited here.

    The scan reads the partial index on ``deadline`` (playing tables only). Each table is
    then locked on its own, skipping rows another worker or a move holds right now, and
    rechecked under the lock, so two sweeps never forfeit one table twice. This sweep
    (every 30 s, ``CELERY_BEAT_SCHEDULE``: up to 400 tables a minute) is what forfeits a
    turn nobody plays: a read shows it ``overdue`` and writes nothing; a late move is
    refused (``turn_expired``) and forfeits it itself (R27)."""
    now = timezone.now()
    return _sweep("absence", due_absences(now, batch), services.table_forfeit_overdue, now)


def due_absences(now, batch: int = SWEEP_BATCH):
    """The ids of at most ``batch`` playing tables whose deadline (R27) is before ``now``,
    oldest first: a range of the partial index ``table_due_deadline``."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, deadline__lt=now)
        .order_by("deadline")
        .values_list("pk", flat=True)[:batch]
    )


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def sweep_idle(batch: int = SWEEP_BATCH) -> int:
    """Close every table with no move for ``IDLE_SECONDS`` (R28), oldest first, at most
    ``batch`` per run, locking and rechecking each as ``sweep_absences`` does. Returns how
    many were closed here."""
    now = timezone.now()
    return _sweep("idle", due_idle(now, batch), services.table_close_idle, now)


def due_idle(now, batch: int = SWEEP_BATCH):
    """The ids of at most ``batch`` waiting or playing tables with no move for
    ``IDLE_SECONDS`` (R28), oldest first: a range of the partial index
    ``table_idle_last_move``."""
    idle_since = now - timedelta(seconds=settings.IDLE_SECONDS)
    return (
        Table.objects.filter(status__in=services.ACTIVE, last_move_at__lt=idle_since)
        .order_by("last_move_at")
        .values_list("pk", flat=True)[:batch]
    )


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def sweep_stuck_bots(batch: int = SWEEP_BATCH) -> int:
    """Re-send the turn of every bot that should have moved ``BOT_STUCK_SECONDS`` ago (its
    task was lost: broker outage, worker crash), at most once per ``BOT_STUCK_SECONDS`` per
    table (``services.resume_stuck_bot``); every 30 s (``CELERY_BEAT_SCHEDULE``): a read
    of the table never sends it.
    ``bot_play`` ignores a stale version, so a task that was only slow is harmless.
    Returns how many were re-sent."""
    now = timezone.now()
    with metrics.sweep_run("stuck_bots") as found:
        due = list(stuck_bots(now, batch))
        found(len(due))
        return sum(services.resume_stuck_bot(table, now) for table in due)


def stuck_bots(now, batch: int = SWEEP_BATCH):
    """At most ``batch`` playing tables at a bot's turn (no deadline) that began
    ``BOT_STUCK_SECONDS`` before ``now`` and were not re-sent since, oldest first: a range
    of the partial index ``table_bot_turn_started``."""
    since = now - timedelta(seconds=settings.BOT_STUCK_SECONDS)
    return (
        Table.objects.filter(
            status=Table.Status.PLAYING,
            deadline__isnull=True,
            turn_seat__isnull=False,
            turn_started_at__lt=since,
        )
        .filter(Q(bot_requeued_at__isnull=True) | Q(bot_requeued_at__lt=since))
        .order_by("turn_started_at")
        .only("pk", "version", "status", "deadline", "turn_seat", "turn_started_at")[:batch]
    )


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def sweep_move_requests() -> int:
    """Forget remembered ``Idempotency-Key`` answers older than ``IDEMPOTENCY_SECONDS``:
    a client retries within minutes, not days. Returns how many were deleted."""
    return services.move_requests_forget()


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def sweep_email_deliveries() -> int:
    """Forget the e-mail delivery records older than ``EMAIL_DELIVERY_SECONDS`` (30
    days): a task is retried within minutes, not weeks. Returns how many were deleted."""
    return services.deliveries_forget()
