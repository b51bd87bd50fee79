"""The outbox: side effects of a write (a bot's turn, the players' notices), queued by task
name and delivered at least once after the write commits (a transactional outbox).

``send_on_commit`` writes a ``TableEvent`` row inside the write's transaction, so the side
effect commits or rolls back with the write. Once it commits (and, during a request, once
its answer is sent: ``core.after_response``) the row is sent and marked delivered: the
kick. When the kick never comes (the process died after the commit) or fails (the broker
is away), the beat task ``tables.tasks.relay_table_events`` sends every row still
undelivered ``OUTBOX_GRACE_SECONDS`` after its write (``relay``), a table's rows in
``(version, id)`` order, and two relays never send one row twice (row locks, skipping what
another relay holds). A row can still be sent twice (sent, then the process died before
marking it): every task it names does nothing the second time (version checks, one notice
per key), and ``tests/tasks/test_outbox_relay.py`` shows it.

Tasks are named, not imported, so the service layer never imports ``tables.tasks`` (which
imports the services): the name is looked up in the Celery app's registry when it is
queued, and the task's own ``apply_async`` sends it, so ``CELERY_TASK_ALWAYS_EAGER`` (no
broker, and the tests) still runs it inline. ``tables.apps`` and ``notices.apps`` import
their tasks so the registry knows them in every process, the web one included. Notices
(``notices.tasks``) are written from these tasks, and every e-mail and push is fed from
them: no service mails directly.

The outbox also tells the waiting readers (``tables.api.waits``: the long poll) that a
table's version moved: ``publish_version`` sends ``"<table id>:<version>"`` on the Redis
channel ``settings.TABLE_VERSIONS_CHANNEL`` once the write commits. That wake-up is not
kept in a row: a waiting reader that misses it answers when its wait ends.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

import redis
from celery import current_app
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F, Min, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.after_response import run_after_response
from tables.models import Table, TableEvent

logger = logging.getLogger(__name__)

#: The tasks the services queue (names of ``tables.tasks`` and ``notices.tasks`` functions).
BOT_PLAY = "tables.tasks.bot_play"
TURN_NOTICE = "notices.tasks.record_turn"
HAND_OVER_NOTICE = "notices.tasks.record_hand_over"
MATCH_OVER_NOTICE = "notices.tasks.record_match_over"
SEAT_TAKEN_NOTICE = "notices.tasks.record_seat_taken"
SEAT_LEFT_NOTICE = "notices.tasks.record_seat_left"
REMATCH_OFFERED_NOTICE = "notices.tasks.record_rematch_offered"
ANALYSE_MATCH = "tables.tasks.analyse_match"
TASK_NAMES = (
    BOT_PLAY,
    TURN_NOTICE,
    HAND_OVER_NOTICE,
    MATCH_OVER_NOTICE,
    SEAT_TAKEN_NOTICE,
    SEAT_LEFT_NOTICE,
    REMATCH_OFFERED_NOTICE,
    ANALYSE_MATCH,
)


#: The tasks whose first argument is the table their event follows (the others, an
#: analysis or a moderator's action, follow no table: their rows have no order to keep).
TABLE_FIRST = frozenset(
    {
        BOT_PLAY,
        TURN_NOTICE,
        HAND_OVER_NOTICE,
        MATCH_OVER_NOTICE,
        SEAT_TAKEN_NOTICE,
        SEAT_LEFT_NOTICE,
        REMATCH_OFFERED_NOTICE,
        "notices.moderation_tasks.record_talk",
    }
)
#: How many tables, and rows of one table, one relay run sends; the next run takes the rest.
RELAY_BATCH = 200
#: Delivered rows deleted per statement by ``forget_delivered``.
FORGET_BATCH = 5000


def send_on_commit(name: str, *args, **options) -> None:
    """Write the ``TableEvent`` of task ``name`` with ``args`` (ids, versions: JSON) and
    ``apply_async`` ``options`` (``countdown`` in seconds is kept as the row's
    ``not_before``) in the current transaction, and send it once the transaction commits
    and, during a request, its answer is sent (``core.after_response``); never, if it
    rolls back. If that send fails or never happens, ``relay`` sends the row. Raises
    ``celery.exceptions.NotRegistered`` at once for a name no task has."""
    task = current_app.tasks[name]
    kept = dict(options)
    countdown = kept.pop("countdown", None)
    table_id = args[0] if name in TABLE_FIRST else None
    event = TableEvent.objects.create(
        table_id=table_id,
        # the table's version as this transaction sees it: a later write's rows sort after
        version=_version_of(table_id) if table_id is not None else 0,
        task=name,
        args=list(args),
        options=kept,
        not_before=timezone.now() + timedelta(seconds=countdown) if countdown else None,
    )
    event_id = event.pk
    transaction.on_commit(
        lambda: _after_response(lambda: _kick(task, event_id, args, options), task)
    )


def _version_of(table_id: int):
    """The table's version, read inside the row's own INSERT (no round trip of its own);
    0 for a table that is not there."""
    return Coalesce(Subquery(Table.objects.filter(pk=table_id).values("version")[:1]), 0)


def send_now(name: str, *args, **options) -> None:
    """Send task ``name`` at once, for a side effect that follows no write of this
    transaction (a read that finds a bot's turn lost). Errors as ``send_on_commit``."""
    _send(current_app.tasks[name], args, options)


def _after_response(send, task=None) -> None:
    """Run ``send`` once the request's answer is sent (``core.after_response``: the
    player does not wait for the queueing), or now outside a request. Tasks run inline
    (``CELERY_TASK_ALWAYS_EAGER``: no broker, and the tests) are sent now, so that their
    own errors still reach the caller under test."""
    if task is not None and task.app.conf.task_always_eager:
        send()
    else:
        run_after_response(send)


def _kick(task, event_id: int, args: tuple, options: dict) -> None:
    """Send the event just committed, with the caller's own ``options`` (its countdown
    runs from now, as the write meant), and mark it delivered; on failure count the
    attempt and leave it to ``relay``. A database error is logged: the row stays
    undelivered and ``relay`` sends it again (at least once)."""
    now = timezone.now()
    sent = _send(task, args, options)
    try:
        _mark(event_id, now if sent else None)
    except DatabaseError:
        logger.exception("could not mark event %s of %s; the relay sends it again", event_id, task)


def _mark(event_id: int, delivered_at: datetime | None) -> None:
    """One more attempt at ``event_id``; delivered at ``delivered_at`` unless ``None``."""
    rows = TableEvent.objects.filter(pk=event_id)
    if delivered_at is None:
        rows.update(attempts=F("attempts") + 1)
    else:
        rows.filter(delivered_at__isnull=True).update(
            delivered_at=delivered_at, attempts=F("attempts") + 1
        )


def _timed(options: dict, not_before: datetime | None, now: datetime) -> dict:
    """``options`` for ``apply_async``, with the ``countdown`` left until ``not_before``."""
    if not_before is None or not_before <= now:
        return dict(options)
    return {**options, "countdown": (not_before - now).total_seconds()}


def _send(task, args, options: dict) -> bool:
    """Whether the task was sent (or, with no broker, run). A failure is logged, never
    raised: the write is already committed, so the player must not see an error for it
    (a broker outage raises kombu's ``OperationalError``, Redis's errors, or Celery's
    ``RuntimeError``); the event stays undelivered and ``relay`` sends it again. With no
    broker (``make run``: tasks run inline) the task's own errors land here too, and are
    raised under test so that the tests see them."""
    try:
        task.apply_async(args, **options)
    except Exception:  # the write it follows stands, whatever went wrong here
        if task.app.conf.task_always_eager and getattr(settings, "TESTING", False):
            raise
        logger.exception("could not enqueue %s%r; the committed write stands", task.name, args)
        return False
    return True


def relay(now: datetime | None = None, batch: int = RELAY_BATCH) -> int:
    """Send the events still undelivered ``OUTBOX_GRACE_SECONDS`` after ``now`` (default:
    the present) and mark them delivered: the beat's safety net under the kick. A table's
    rows go in ``(version, id)`` order, one relay per table at a time: a relay owns a
    table while it holds the lock of its first undelivered row, and skips a table another
    relay owns (``select_for_update(skip_locked=True)``); a send that fails stops that
    table's later rows until the next run. Rows of no table are each locked and sent once,
    skipping those another relay holds. At most ``batch`` tables a run, and ``batch`` rows
    of each. Returns how many rows were sent."""
    now = now or timezone.now()
    due = TableEvent.objects.filter(
        delivered_at__isnull=True,
        created_at__lte=now - timedelta(seconds=settings.OUTBOX_GRACE_SECONDS),
    )
    with transaction.atomic():
        free = due.filter(table__isnull=True).select_for_update(skip_locked=True)
        sent = _deliver(list(free.order_by("pk")[:batch]), now)
    tables = (
        due.filter(table__isnull=False)
        .values("table_id")
        .annotate(first=Min("pk"))
        .order_by("first")
        .values_list("table_id", flat=True)
    )
    for table_id in list(tables[:batch]):
        sent += _relay_table(due.filter(table_id=table_id), table_id, now, batch)
    return sent


def _relay_table(due, table_id: int, now: datetime, batch: int) -> int:
    """Send table ``table_id``'s ``due`` rows in order if this relay can own the table
    (the lock of its first undelivered row); 0 when another relay owns it or its first
    row is not due yet."""
    with transaction.atomic():
        pending = TableEvent.objects.filter(table_id=table_id, delivered_at__isnull=True)
        head = pending.order_by("version", "pk").values_list("pk", flat=True).first()
        owned = pending.filter(pk=head).select_for_update(skip_locked=True)
        if head is None or not list(owned.values_list("pk", flat=True)):
            return 0  # delivered meanwhile, or another relay is sending this table
        rows = list(due.select_for_update().order_by("version", "pk")[:batch])
        if not rows or rows[0].pk != head:
            return 0  # its first row is still within its kick's grace: wait for it
        return _deliver(rows, now)


def _deliver(rows: list[TableEvent], now: datetime) -> int:
    """Send ``rows`` (locked, in order) one by one, marking each delivered; the first that
    fails is counted and ends the run's rows, so no later one overtakes it."""
    sent = 0
    for row in rows:
        task = current_app.tasks.get(row.task)
        if task is None:
            logger.error("event %s names no task %r; it waits undelivered", row.pk, row.task)
        if task is None or not _send(task, row.args, _timed(row.options, row.not_before, now)):
            _mark(row.pk, None)
            break
        _mark(row.pk, now)
        sent += 1
    return sent


def forget_delivered(now: datetime | None = None) -> int:
    """Delete the rows delivered more than ``OUTBOX_KEEP_SECONDS`` before ``now``, by
    ``FORGET_BATCH`` a statement through the index on ``delivered_at``; undelivered rows
    stay whatever their age. Returns how many were deleted."""
    since = (now or timezone.now()) - timedelta(seconds=settings.OUTBOX_KEEP_SECONDS)
    deleted = 0
    while True:
        old = TableEvent.objects.filter(delivered_at__lt=since).order_by("delivered_at")
        ids = list(old.values_list("pk", flat=True)[:FORGET_BATCH])
        if not ids:
            return deleted
        deleted += TableEvent.objects.filter(pk__in=ids).delete()[0]


#: After a failed publish, skip publishing for this long (seconds): a Redis that is down
#: costs one write its connect timeout, not every write. The waiting readers fall back
#: to answering at once (their clients poll), so nothing is lost but speed.
PUBLISH_PAUSE_SECONDS = 5.0
_publisher: dict[str, object] = {"client": None, "paused_until": 0.0}


def publish_version(table_id: int, version: int) -> None:
    """Once the current transaction commits (and the request's answer is sent:
    ``core.after_response``), publish that table ``table_id`` is now at
    ``version`` (``"<id>:<version>"`` on ``settings.TABLE_VERSIONS_CHANNEL``), waking the
    long polls waiting on it. Never, if it rolls back; nothing without ``REDIS_URL``.
    Never raises: a failure is logged and the write stands."""
    if settings.REDIS_URL:
        transaction.on_commit(lambda: _after_response(lambda: _publish(table_id, version)))


def _publish(table_id: int, version: int) -> None:
    now = time.monotonic()
    if now < _publisher["paused_until"]:
        return
    try:
        if _publisher["client"] is None:
            _publisher["client"] = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
            )
        _publisher["client"].publish(settings.TABLE_VERSIONS_CHANNEL, f"{table_id}:{version}")
    except redis.RedisError:
        _publisher["paused_until"] = now + PUBLISH_PAUSE_SECONDS
        logger.warning("could not publish table %s version %s; waits fall back", table_id, version)
