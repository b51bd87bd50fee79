"""The domain's metrics (prometheus-client), in one place, and ``GET /metrics``.

django-prometheus adds the HTTP metrics (``django_http_*``: requests by view and method,
responses by status, latency) and the database's (``django_db_*``: queries, errors,
connections); the counters below are the game's. Each is incremented where the thing
happens, by the API views, the tasks and the notice channels: docs/operations.md says
what each means and the alerts worth setting on them.

``GET /metrics`` is answered by ``MetricsMiddleware``, early (before the host check and
the HTTPS redirect, as ``/healthz``: Prometheus scrapes the container by its name, over
plain HTTP inside the compose network), only with ``Authorization: Bearer
<METRICS_TOKEN>``; without the setting, or without the right token, it is a 404, the same
as any unknown path. Under several processes (uvicorn's workers, Celery's pool)
``PROMETHEUS_MULTIPROC_DIR`` names a folder they all write to, and the answer adds them
up (prometheus-client's multiprocess mode); a worker container serves its own on
``METRICS_PORT`` (``start_worker_exporter``), which must never be published.
"""

from __future__ import annotations

import hmac
import os
import time
from contextlib import contextmanager

import prometheus_client
from django.conf import settings
from django.http import HttpResponse, HttpResponseNotFound
from prometheus_client import Counter, Gauge, Histogram, multiprocess

from core.sync_and_async import SyncAndAsyncMiddleware

PATH = "/metrics"

#: Moves written, by ``kind`` (play, draw, pass) and ``by``: ``player`` (a person's
#: chosen action), ``bot`` (a bot's) or ``automatic`` (the draws and passes that follow,
#: R16).
MOVES = Counter("domino_moves", "Moves written.", ["kind", "by"])
#: Matches that ended, by rule profile, table size and outcome (target, absence, ...).
MATCHES_FINISHED = Counter(
    "domino_matches_finished", "Matches that ended.", ["profile", "seats", "outcome"]
)
#: Each decision on a due notice, by channel (email, push) and outcome.
NOTICE_OUTCOMES = (
    "sent",
    "skipped",  # not wanted, no longer valid, or seen since it happened
    "skipped-present",  # held: the player is at the table (their page shows it)
    "skipped-quiet",  # held: the player's quiet hours
    "skipped-interval",  # held: a "your turn" e-mail went less than the interval ago
    "bounced",  # the mail server refused the address
    "failed",  # the send failed (the task retries); a push no device took
)
NOTICES = Counter("domino_notices", "Decisions on due notices.", ["channel", "outcome"])
#: A sweep's run, and how many rows it found due.
SWEEP_SECONDS = Histogram(
    "domino_sweep_seconds",
    "Time of one sweep run.",
    ["sweep"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
SWEEP_ROWS_DUE = Gauge(
    "domino_sweep_rows_due",
    "Rows the last run of a sweep found due.",
    ["sweep"],
    multiprocess_mode="mostrecent",
)
#: Long polls (``?wait=``) waiting now, summed over the live processes.
LONG_POLLS = Gauge(
    "domino_long_polls_waiting", "Long polls waiting now.", multiprocess_mode="livesum"
)
#: From a task's sending (or its countdown's end) to its start in a worker.
TASK_QUEUE_LAG = Histogram(
    "domino_task_queue_lag_seconds",
    "Time a task waited in the queue.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)
#: A bot's thinking time for one move (outside the table's lock).
BOT_MOVE_SECONDS = Histogram(
    "domino_bot_move_seconds",
    "A bot's time to choose a move.",
    ["bot"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)

# The header a sent task carries its sending time in (seconds since the epoch).
_SENT_AT = "domino_sent_at"


def count_moves(moves, *, bot: bool = False) -> None:
    """Count ``moves`` (``Move`` rows, or anything with ``kind`` and ``automatic``), the
    ones not ``automatic`` as the ``bot``'s or a player's."""
    chooser = "bot" if bot else "player"
    for move in moves:
        MOVES.labels(move.kind, "automatic" if move.automatic else chooser).inc()


def count_notice(channel: str, outcome: str, number: int = 1) -> None:
    """Count ``number`` notices of ``channel`` (``email``, ``push``) decided ``outcome``
    (one of ``NOTICE_OUTCOMES``)."""
    if number:
        NOTICES.labels(channel, outcome).inc(number)


@contextmanager
def sweep_run(name: str):
    """Time one run of sweep ``name``; the block calls ``due(n)`` with the rows it found."""
    started = time.perf_counter()
    try:
        yield lambda count: SWEEP_ROWS_DUE.labels(name).set(count)
    finally:
        SWEEP_SECONDS.labels(name).observe(time.perf_counter() - started)


def registry():
    """The registry to answer with: every process's (multiprocess mode) or this one's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        collected = prometheus_client.CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)
        return collected
    return prometheus_client.REGISTRY


def authorized(header: str) -> bool:
    """Whether an ``Authorization`` header value carries ``METRICS_TOKEN`` (never, when
    the setting is empty)."""
    token = settings.METRICS_TOKEN
    if not token:
        return False
    scheme, _space, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.encode(), token.encode())


class MetricsMiddleware(SyncAndAsyncMiddleware):
    """Answers ``GET /metrics`` (the text exposition format) for a caller with the token,
    and 404 for anyone else; every other request passes through. Sync and async capable
    (one sync-only middleware would run an ASGI chain, long polls too, in a thread): the
    answer is built from memory, or the multiprocess folder's files, in milliseconds."""

    def _call(self, request):
        if request.path != PATH:
            return self.get_response(request)
        return _metrics_answer(request)

    async def _acall(self, request):
        if request.path != PATH:
            return await self.get_response(request)
        return _metrics_answer(request)


def _metrics_answer(request) -> HttpResponse:
    if request.method != "GET" or not authorized(request.headers.get("Authorization", "")):
        return HttpResponseNotFound(b"", content_type="text/plain")
    body = prometheus_client.generate_latest(registry())
    return HttpResponse(body, content_type=prometheus_client.CONTENT_TYPE_LATEST)


# --- Celery: the queue's lag, and a worker's own exporter -----------------------------------


def stamp_sent_at(headers=None, **kwargs) -> None:
    """``before_task_publish``: the task carries the moment it was sent."""
    if headers is not None:
        headers[_SENT_AT] = time.time()


def observe_queue_lag(task=None, **kwargs) -> None:
    """``task_prerun``: how long ``task`` waited since it was sent, or since its
    countdown ended (``eta``); nothing for a task run inline or sent without the stamp."""
    request = getattr(task, "request", None)
    sent_at = getattr(request, _SENT_AT, None) if request is not None else None
    if sent_at is None or getattr(request, "is_eager", False):
        return
    waited = time.time() - float(sent_at)
    eta = getattr(request, "eta", None)
    if eta:
        from datetime import datetime

        waited = time.time() - datetime.fromisoformat(str(eta)).timestamp()
    TASK_QUEUE_LAG.labels(task.name).observe(max(0.0, waited))


def start_worker_exporter(**kwargs) -> None:
    """``worker_init`` (the worker's main process, before its pool starts): serve this
    container's metrics, every pool process's, on ``METRICS_PORT`` when it is set."""
    port = os.environ.get("METRICS_PORT", "")
    if port.isdigit():
        prometheus_client.start_http_server(int(port), registry=registry())


def connect_task_signals() -> None:
    """Connect the receivers above to Celery's signals (``config.celery_app``)."""
    from celery.signals import before_task_publish, task_prerun, worker_init

    before_task_publish.connect(stamp_sent_at, weak=False)
    task_prerun.connect(observe_queue_lag, weak=False)
    worker_init.connect(start_worker_exporter, weak=False)
