"""The long poll: ``GET /api/v1/tables/{id}/?since_version=N&wait=S`` answers as soon as
the table's version moves past ``N``, or after ``S`` seconds with the usual 304.

The answer is always the one ``TableDetailApi`` gives (the same authentication, 404 for a
stranger, selectors, hidden-information rules and ETag): this view only decides *when*
to ask it. Under an ASGI server (uvicorn, ``README``) a waiting request is a coroutine on
the process's event loop, with no database connection open; it does not hold a worker.

One Redis subscription per process (``_Hub``, per event loop) listens on
``settings.TABLE_VERSIONS_CHANNEL``, where the services publish ``"<table id>:<version>"``
once a write commits (``tables.services.outbox.publish_version``), and wakes the requests
waiting on that table. ``settings.TABLE_WAIT_READERS`` bounds how many of them read the
database at once.

The fallbacks answer at once, as the plain GET does, and the client's own polling goes
on: no ``wait`` (or ``wait=0``), a WSGI server (``runserver``, gunicorn's sync workers:
they cannot wait without holding a worker), or a Redis that does not answer (the hub
tries again ``RETRY_SECONDS`` later). A Redis that drops mid-wait wakes every waiter,
which then answers what the table is now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import defaultdict
from dataclasses import dataclass, field

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from core import metrics
from tables.api.tables import TableDetailApi, wait_asked
from tables.errors import TableError

logger = logging.getLogger(__name__)

#: How long a request waits for the subscription to be confirmed (seconds) before it
#: answers at once instead.
CONNECT_SECONDS = 1.0
#: After the subscription failed or dropped, the hub tries Redis again this much later
#: (seconds); until then every wait answers at once.
RETRY_SECONDS = 5.0

_detail = TableDetailApi.as_view()


@dataclass(eq=False)
class _Waiter:
    """One waiting request: the version it holds and the future the hub resolves."""

    since: int
    woken: asyncio.Future = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def wake(self) -> None:
        if not self.woken.done():
            self.woken.set_result(None)


class _Hub:
    """The process's one subscription and the requests waiting on each table id."""

    def __init__(self) -> None:
        self.waiters: dict[int, set[_Waiter]] = defaultdict(set)
        self.readers = asyncio.Semaphore(settings.TABLE_WAIT_READERS)
        self.subscribed = asyncio.Event()
        self.listener: asyncio.Task | None = None
        self.retry_at = 0.0

    async def ready(self) -> bool:
        """Whether the subscription is up (starting it if needed); False: answer at once."""
        if self.subscribed.is_set():
            return True
        loop = asyncio.get_running_loop()
        if self.listener is None or self.listener.done():
            if loop.time() < self.retry_at:
                return False
            self.listener = loop.create_task(self._listen())
        confirmed = loop.create_task(self.subscribed.wait())
        await asyncio.wait(
            {confirmed, self.listener}, timeout=CONNECT_SECONDS, return_when=asyncio.FIRST_COMPLETED
        )
        confirmed.cancel()
        return self.subscribed.is_set()

    def add(self, table_id: int, since: int) -> _Waiter:
        waiter = _Waiter(since)
        self.waiters[table_id].add(waiter)
        return waiter

    def discard(self, table_id: int, waiter: _Waiter) -> None:
        waiting = self.waiters.get(table_id)
        if waiting is not None:
            waiting.discard(waiter)
            if not waiting:
                del self.waiters[table_id]

    def wake_table(self, table_id: int, version: int) -> None:
        """Wake the requests on ``table_id`` that hold a version older than ``version``."""
        for waiter in self.waiters.get(table_id, ()):
            if version > waiter.since:
                waiter.wake()

    def wake_everyone(self) -> None:
        for waiting in self.waiters.values():
            for waiter in waiting:
                waiter.wake()

    async def read(self, request: HttpRequest, table_id: int, *, release: bool) -> HttpResponse:
        """``TableDetailApi``'s answer, with at most ``TABLE_WAIT_READERS`` at once; with
        ``release`` the request's database connection is closed after it (it is about to
        wait, and must not hold one meanwhile)."""
        async with self.readers:
            return await sync_to_async(_read)(request, table_id, release)

    async def _listen(self) -> None:
        client = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=CONNECT_SECONDS, socket_keepalive=True
        )
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(settings.TABLE_VERSIONS_CHANNEL)
            async for message in pubsub.listen():
                if message["type"] == "subscribe":
                    self.subscribed.set()  # from here on no publish is missed
                elif message["type"] == "message":
                    self._message(message["data"])
        except (redis.RedisError, OSError) as error:
            logger.warning("table version subscription lost (%s); waits answer at once", error)
        finally:
            self.subscribed.clear()
            self.retry_at = asyncio.get_running_loop().time() + RETRY_SECONDS
            self.wake_everyone()
            with contextlib.suppress(redis.RedisError, OSError):
                await pubsub.aclose()
                await client.aclose()

    def _message(self, data: bytes) -> None:
        table_id, _, version = data.partition(b":")
        if table_id.isdigit() and version.isdigit():
            self.wake_table(int(table_id), int(version))


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()


def hub() -> _Hub:
    """The running event loop's hub (one per server process)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = _Hub()
    return _hubs[loop]


def _read(request: HttpRequest, table_id: int, release: bool) -> HttpResponse:
    try:
        return _detail(request, table_id=table_id)
    finally:
        if release:
            connections.close_all()


def _asked(request: HttpRequest) -> tuple[int, int] | None:
    """``(since_version, seconds)`` of a well-formed wait, else None (no wait asked, or a
    malformed one, which ``TableDetailApi`` refuses with its 400)."""
    if request.method != "GET":
        return None
    try:
        return wait_asked(request.GET)
    except TableError:
        return None


@csrf_exempt
async def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    """``tables/{table_id}/``: ``TableDetailApi``, waiting first when ``?wait=`` asks it
    (seconds, at most ``settings.TABLE_WAIT_MAX_SECONDS``) and the server can wait.

    Answers 200 with the table once its version passes ``since_version`` (at once if it
    already has), or 304 after ``wait`` seconds without a change; errors as the plain GET
    (401, 404 for a stranger, 400 ``invalid_wait`` / ``invalid_since_version``)."""
    asked = _asked(request)
    waits = hub() if asked and asked[1] > 0 and isinstance(request, ASGIRequest) else None
    if waits is None or not await waits.ready():
        return await sync_to_async(_detail)(request, table_id=table_id)
    since, seconds = asked
    waiter = waits.add(table_id, since)  # before the first look: no move falls in between
    metrics.LONG_POLLS.inc()
    try:
        response = await waits.read(request, table_id, release=True)
        if response.status_code != 304:
            return response
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter.woken, seconds)
        return await waits.read(request, table_id, release=False)
    finally:
        metrics.LONG_POLLS.dec()
        waits.discard(table_id, waiter)


# DRF's URL tools and the schema generator see the API view behind it.
table_detail.cls = TableDetailApi
table_detail.initkwargs = {}
