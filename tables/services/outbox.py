"""The outbox: side effects of a write (a bot's turn, the players' notices), queued by task
name and sent once the write commits (as zulip's ``send_event_on_commit``).

Tasks are named, not imported, so the service layer never imports ``tables.tasks`` (which
imports the services): the name is looked up in the Celery app's registry when it is
queued, and the task's own ``apply_async`` sends it, so ``CELERY_TASK_ALWAYS_EAGER`` (no
broker, and the tests) still runs it inline. ``tables.apps`` and ``notices.apps`` import
their tasks so the registry knows them in every process, the web one included. Notices
(``notices.tasks``) are written from these tasks, and every e-mail and push is fed from
them: no service mails directly.

The outbox also tells the waiting readers (``tables.api.waits``: the long poll) that a
table's version moved: ``publish_version`` sends ``"<table id>:<version>"`` on the Redis
channel ``settings.TABLE_VERSIONS_CHANNEL`` once the write commits.
"""

from __future__ import annotations

import logging
import time

import redis
from celery import current_app
from django.conf import settings
from django.db import transaction

from core.after_response import run_after_response

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


def send_on_commit(name: str, *args, **options) -> None:
    """Send task ``name`` with ``args`` (ids, versions: JSON) and ``apply_async``
    ``options`` (e.g. ``countdown`` in seconds) once the current transaction commits and,
    during a request, its answer is sent (``core.after_response``); never, if it rolls
    back. Raises ``celery.exceptions.NotRegistered`` at once for a name
    no task has."""
    task = current_app.tasks[name]
    transaction.on_commit(lambda: _after_response(lambda: _send(task, args, options), task))


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


def _send(task, args: tuple, options: dict) -> None:
    """A failure is logged, never raised: the write is already committed, so the player
    must not see an error for it (a broker outage raises kombu's ``OperationalError``,
    Redis's errors, or Celery's ``RuntimeError``). A lost bot turn is sent again by the
    next read of the table (``resume_stuck_bot``) or the stuck-bot sweep, once it has
    waited ``BOT_STUCK_SECONDS``; a lost e-mail task is not. With no broker (``make run``:
    tasks run inline) the task's own errors land here too, and are raised under test so
    that the tests see them."""
    try:
        task.apply_async(args, **options)
    except Exception:  # the write it follows stands, whatever went wrong here
        if task.app.conf.task_always_eager and getattr(settings, "TESTING", False):
            raise
        logger.exception("could not enqueue %s%r; the committed write stands", task.name, args)


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
