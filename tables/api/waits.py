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

A woken request does not run the whole GET again. The hub reads the table once per
version (``_Version``: the table, its seats and users, its match parsed and the moves its
seats have not all seen; two queries) and builds each reader's document once per version
from it (``common.table_document``, the GET's own), so a thousand waiters on fifty tables
cost fifty reads and one document per reader, with no authentication query (the first
look authenticated the request). What those readers saw (presence, their seen version,
notices read) is recorded for all of them at once, shortly after their answers went
(``core.table_reads.tables_read``). A reader no longer seated, a failed read or a version
not newer than the one held fall back to the whole GET.

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
import time
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
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.decorators.csrf import csrf_exempt
from rest_framework.renderers import JSONRenderer

from core import metrics
from core.table_reads import TableRead, reads_collected, record_after_response, tables_read
from tables import selectors
from tables.api.common import etag, table_document
from tables.api.tables import TableDetailApi, wait_asked
from tables.errors import TableError
from tables.models import Move, Seat, Table

logger = logging.getLogger(__name__)

#: How long a request waits for the subscription to be confirmed (seconds) before it
#: answers at once instead.
CONNECT_SECONDS = 1.0
#: After the subscription failed or dropped, the hub tries Redis again this much later
#: (seconds); until then every wait answers at once.
RETRY_SECONDS = 5.0

#: How long a table version's shared read and documents serve woken requests (seconds):
#: they are for the requests one wake answers together, not for later readers (a table's
#: ``overdue`` changes with the clock).
ANSWERS_SECONDS = 10.0
#: The reads of woken requests are recorded together this long after the first of them
#: (seconds): their answers go first.
RECORD_AFTER_SECONDS = 0.2
#: The ``Allow`` header of ``TableDetailApi``'s answers, which the woken ones carry too.
ALLOW = "GET, HEAD, OPTIONS"

_detail = TableDetailApi.as_view()
_renderer = JSONRenderer()


@dataclass(eq=False)
class _Version:
    """A table as every request woken for it shares it: read once (``table``, with its
    seats, users and parsed match; ``moves``, the Move rows its seats have not all seen)
    and each reader's answer body built once (``documents``, by reader)."""

    table: Table
    moves: list[Move]
    read_at: float
    documents: dict[tuple, asyncio.Future] = field(default_factory=dict)


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
        #: The newest version published per table, and its shared read (``_Version``).
        self.published: dict[int, int] = {}
        self.versions: dict[int, asyncio.Future] = {}
        #: The reads of woken requests not recorded yet, and the task that records them.
        self.unrecorded: list[TableRead] = []
        self.recorder: asyncio.Task | None = None

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
            if not waiting:  # nobody left to share the table's read with
                del self.waiters[table_id]
                self.published.pop(table_id, None)
                self.versions.pop(table_id, None)

    def wake_table(self, table_id: int, version: int) -> None:
        """Wake the requests on ``table_id`` that hold a version older than ``version``."""
        if table_id in self.waiters and version > self.published.get(table_id, -1):
            self.published[table_id] = version
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

    async def woken(self, request: HttpRequest, table_id: int, since: int) -> HttpResponse | None:
        """The answer of a request woken on ``table_id`` (holding ``since``), built from the
        table's shared read (``_Version``): the same document, ETag and caching headers
        as ``TableDetailApi`` would send this reader now. ``None`` when the GET must
        answer instead (the reader no longer sits there, the read failed, or the table is
        not past ``since``). ``request.user`` is the one the first look authenticated."""
        shared = await self._version(table_id, since)
        if shared is None or shared.table.version <= since:
            return None
        user = request.user
        mine = [seat for seat in shared.table.seat_set.all() if seat.user_id == user.pk]
        if not mine:
            return None
        key = (user.pk, mine[0].seen_version, translation.get_language(), request.get_host())
        document = shared.documents.get(key)
        if document is None:
            document = shared.documents[key] = asyncio.ensure_future(
                self._document(request, shared, mine[0])
            )
        try:
            body = await asyncio.shield(document)
        except Exception:  # the whole GET answers instead, and says what failed
            shared.documents.pop(key, None)
            return None
        table = shared.table
        seen = all(seat.seen_version >= table.version for seat in mine)
        self._record(TableRead(user.pk, table.pk, table.version, seen, time.time()))
        response = HttpResponse(body, content_type="application/json")
        response["ETag"] = etag(table, mine[0])
        response["Allow"] = ALLOW
        patch_cache_control(response, private=True, no_cache=True)
        return response

    async def _version(self, table_id: int, since: int) -> _Version | None:
        """The shared read of ``table_id`` at its newest published version (or, woken
        by a drop of Redis, past ``since``): the one in flight or done, else a new one."""
        wanted = max(self.published.get(table_id, 0), since + 1)
        shared = None
        for _attempt in range(2):  # a read begun before the newest publish: once more
            future = self.versions.get(table_id)
            if future is None or _stale(future, wanted):
                future = self.versions[table_id] = asyncio.ensure_future(self._read(table_id))
            try:
                shared = await asyncio.shield(future)
            except Exception:  # the whole GET answers instead, and says what failed
                logger.warning("shared read of table %s failed", table_id, exc_info=True)
                return None
            if shared.table.version >= wanted:
                break
        return shared

    async def _read(self, table_id: int) -> _Version:
        async with self.readers:
            table, moves = await sync_to_async(_shared_read)(table_id)
        return _Version(table, moves, asyncio.get_running_loop().time())

    async def _document(self, request: HttpRequest, shared: _Version, seat: Seat) -> bytes:
        async with self.readers:
            return await sync_to_async(_rendered)(request, shared, seat)

    def _record(self, read: TableRead) -> None:
        """Record ``read`` with the others of this wake, ``RECORD_AFTER_SECONDS`` later."""
        self.unrecorded.append(read)
        if self.recorder is None or self.recorder.done():
            self.recorder = asyncio.get_running_loop().create_task(self._record_soon())

    async def _record_soon(self) -> None:
        await asyncio.sleep(RECORD_AFTER_SECONDS)
        reads, self.unrecorded = self.unrecorded, []
        await sync_to_async(_record, thread_sensitive=False)(reads)

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


def _stale(future: asyncio.Future, wanted: int) -> bool:
    """Whether a shared read (done or in flight) cannot serve a wake for ``wanted``."""
    if not future.done():
        return False
    if future.cancelled() or future.exception() is not None:
        return True
    shared = future.result()
    expired = asyncio.get_running_loop().time() - shared.read_at > ANSWERS_SECONDS
    return expired or shared.table.version < wanted


def _shared_read(table_id: int) -> tuple[Table, list[Move]]:
    """The table with its seats and users and its match parsed, and the Move rows after
    the oldest version its seated players have seen (two queries; one when all have
    seen it)."""
    table = selectors.table_with_seats(table_id)
    if table.state is not None:
        selectors.match_state(table)  # parsed once here, for every reader
    seen = [seat.seen_version for seat in table.seat_set.all() if seat.user_id is not None]
    oldest = min(seen, default=table.version)
    moves = selectors.moves_after(table, oldest) if oldest < table.version else []
    return table, moves


def _rendered(request: HttpRequest, shared: _Version, seat: Seat) -> bytes:
    """The answer body for ``request.user``'s ``seat``, as ``TableDetailApi`` renders it."""
    return _renderer.render(table_document(request, shared.table, seat, shared.moves))


def _record(reads: list[TableRead]) -> None:
    """Send the reads to their recorders (``core.table_reads``) in a pool thread, whose
    database connection is closed after (no request ends there to close it)."""
    try:
        tables_read(reads)
    except Exception:  # the answers have gone: nobody is left to tell
        logger.exception("woken reads not recorded")
    finally:
        connections.close_all()


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
        # The look's read is recorded only if it is the answer: a later one supersedes it.
        with reads_collected() as looked:
            response = await waits.read(request, table_id, release=True)
        if response.status_code != 304:
            record_after_response(looked)
            return response
        try:
            await asyncio.wait_for(waiter.woken, seconds)
        except TimeoutError:
            return await waits.read(request, table_id, release=False)
        answer = await waits.woken(request, table_id, since)
        return answer or await waits.read(request, table_id, release=False)
    finally:
        metrics.LONG_POLLS.dec()
        waits.discard(table_id, waiter)


# DRF's URL tools and the schema generator see the API view behind it.
table_detail.cls = TableDetailApi
table_detail.initkwargs = {}
