"""The outbox: the events a write causes (``tables.events``), kept in its transaction and
handed to their subscribers at least once after it commits (a transactional outbox).

``record`` writes a ``TableEvent`` row (the event's ``kind``, its ``payload``, the table
and the version the write produced) inside the write's transaction, so the event commits
or rolls back with the write. Once it commits (and, during a request, once its answer is
sent: ``core.after_response``) the event is handed to every subscriber of its class
(``tables.events.subscribe``: each app's ``AppConfig.ready``) and marked delivered: the
kick. When the kick never comes (the process died after the commit) or fails (a
subscriber could not queue its task: the broker is away), the beat task
``tables.tasks.relay_table_events`` delivers every event still undelivered
``OUTBOX_GRACE_SECONDS`` after its write (``relay``), a table's events in
``(version, id)`` order, and two relays never deliver one row at once (row locks, skipping
what another relay holds). An event can still be delivered twice (handed over, then the
process died before marking it; or one subscriber failed after another had queued its
task): every subscriber does nothing the second time (version checks, one notice per key),
and ``tests/tasks/test_outbox_relay.py`` shows it.

The services name no consumer: ``tables`` subscribes the bot's turn and the analysis
(``tables.subscribers``), ``notices`` the players' notices (``notices.subscribers``), so
the service layer imports neither ``tables.tasks`` nor ``notices``. With
``CELERY_TASK_ALWAYS_EAGER`` (no broker, and the tests) the subscribers' tasks run inline,
in the kick.

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
from django.db.models import F, Min
from django.utils import timezone

from core.after_response import run_after_response
from tables import events
from tables.models import TableEvent

logger = logging.getLogger(__name__)

#: How many tables, and rows of one table, one relay run sends; the next run takes the rest.
RELAY_BATCH = 200
#: Delivered rows deleted per statement by ``forget_delivered``.
FORGET_BATCH = 5000


def record(event: events.Event) -> None:
    """Write ``event``'s ``TableEvent`` row in the current transaction (one INSERT), and
    hand it to its subscribers once the transaction commits and, during a request, its
    answer is sent (``core.after_response``); never, if it rolls back. If that fails or
    never happens, ``relay`` delivers the row. Raises ``ValueError`` for an event whose
    class is not in ``tables.events.KINDS``."""
    if events.KINDS.get(event.kind) is not type(event):
        raise ValueError(f"{type(event).__name__} is no event class of tables.events.KINDS")
    row = TableEvent.objects.create(
        table_id=event.table_id,
        version=event.version,
        kind=event.kind,
        payload=event.payload(),
    )
    delivery = events.Delivery(event_id=row.pk, written_at=row.created_at, event=event)
    transaction.on_commit(lambda: _after_response(lambda: _kick(delivery)))


def _after_response(send) -> None:
    """Run ``send`` once the request's answer is sent (``core.after_response``: the
    player does not wait for the queueing), or now outside a request. With tasks run
    inline (``CELERY_TASK_ALWAYS_EAGER``: no broker, and the tests) it runs now, so that
    the tasks' own errors still reach the caller under test."""
    if current_app.conf.task_always_eager:
        send()
    else:
        run_after_response(send)


def _kick(delivery: events.Delivery) -> None:
    """Hand the event just committed to its subscribers and mark it delivered; on failure
    count the attempt and leave it to ``relay``. A database error is logged: the row stays
    undelivered and ``relay`` delivers it again (at least once)."""
    now = timezone.now()
    sent = _send(delivery)
    try:
        _mark(delivery.event_id, now if sent else None)
    except DatabaseError:
        logger.exception("could not mark event %s; the relay delivers it again", delivery.event_id)


def _mark(event_id: int, delivered_at: datetime | None) -> None:
    """One more attempt at ``event_id``; delivered at ``delivered_at`` unless ``None``."""
    rows = TableEvent.objects.filter(pk=event_id)
    if delivered_at is None:
        rows.update(attempts=F("attempts") + 1)
    else:
        rows.filter(delivered_at__isnull=True).update(
            delivered_at=delivered_at, attempts=F("attempts") + 1
        )


def _send(delivery: events.Delivery) -> bool:
    """Hand ``delivery`` to every subscriber of its event's class, in their order;
    whether all took it. The first failure is logged, never raised, and stops the rest:
    the write is already committed, so the player must not see an error for it (a broker
    outage raises kombu's ``OperationalError``, Redis's errors, or Celery's
    ``RuntimeError``); the event stays undelivered and ``relay`` delivers it again, to
    every subscriber (each does nothing the second time). With no broker (``make run``:
    tasks run inline) the tasks' own errors land here too, and are raised under test so
    that the tests see them."""
    for subscriber in events.subscribers_of(type(delivery.event)):
        try:
            subscriber(delivery)
        except Exception:  # the write it follows stands, whatever went wrong here
            if current_app.conf.task_always_eager and getattr(settings, "TESTING", False):
                raise
            logger.exception(
                "could not deliver event %s (%s) to %s; the committed write stands",
                delivery.event_id,
                delivery.event.kind,
                getattr(subscriber, "__qualname__", subscriber),
            )
            return False
    return True


def relay(now: datetime | None = None, batch: int = RELAY_BATCH) -> int:
    """Deliver the events still undelivered ``OUTBOX_GRACE_SECONDS`` after ``now``
    (default: the present) and mark them delivered: the beat's safety net under the kick.
    A table's rows go in ``(version, id)`` order, one relay per table at a time: a relay
    owns a table while it holds the lock of its first undelivered row, and skips a table
    another relay owns (``select_for_update(skip_locked=True)``); a delivery that fails
    stops that table's later rows until the next run. Rows of no table are each locked and
    delivered once, skipping those another relay holds. At most ``batch`` tables a run,
    and ``batch`` rows of each. Returns how many rows were delivered."""
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
    """Deliver ``rows`` (locked, in order) one by one, marking each delivered; the first
    that fails is counted and ends the run's rows, so no later one overtakes it."""
    sent = 0
    for row in rows:
        delivery = _delivery_of(row)
        if delivery is None or not _send(delivery):
            _mark(row.pk, None)
            break
        _mark(row.pk, now)
        sent += 1
    return sent


def _delivery_of(row: TableEvent) -> events.Delivery | None:
    """The ``Delivery`` of ``row``, or ``None`` (logged) when its kind or payload fits no
    event class of this code: the row waits undelivered for a process that knows it."""
    try:
        event = events.event_of(row.kind, row.table_id, row.version, row.payload)
    except (KeyError, TypeError):
        logger.error("event %s is no known event (%r %r); it waits", row.pk, row.kind, row.payload)
        return None
    return events.Delivery(event_id=row.pk, written_at=row.created_at, event=event)


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
