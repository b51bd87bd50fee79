"""Work that follows a request's answer, run once the answer has been sent.

A committed write's side effects (queueing its Celery tasks, publishing the table's new
version) do not change the answer, so the player need not wait for them: during a
request, ``run_after_response(callback)`` keeps the callback, and
``AfterResponseMiddleware`` runs it when the server closes the response (WSGI servers and
Django's ASGI handler close it once the body is sent; the test client closes it before it
returns). Outside a request (a Celery task, a sweep, a management command) the callback
runs at once. A callback runs with the log context of the moment it was given
(``request_id``, ``user_id``, ...: ``core.log_context``), which the request's own
middleware has cleared by the time the response closes: the tasks it sends carry them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar

import structlog

from core.sync_and_async import SyncAndAsyncMiddleware

logger = logging.getLogger(__name__)

#: The callbacks waiting for the answer of the request being handled, or ``None``.
_waiting: ContextVar[list[Callable[[], None]] | None] = ContextVar("after_response", default=None)


def run_after_response(callback: Callable[[], None]) -> None:
    """Run ``callback`` (no arguments) once the current request's answer is sent, or now
    when no request is being handled. It must not raise: an exception is logged."""
    waiting = _waiting.get()
    if waiting is None:
        _run(callback)
    else:
        fields = structlog.contextvars.get_contextvars()
        waiting.append(lambda: _with_fields(fields, callback))


def _with_fields(fields: dict, callback: Callable[[], None]) -> None:
    with structlog.contextvars.bound_contextvars(**fields):
        callback()


def _run(callback: Callable[[], None]) -> None:
    try:
        callback()
    except Exception:  # the answer is sent: nobody is left to tell
        logger.exception("a callback after the response failed")


class AfterResponseMiddleware(SyncAndAsyncMiddleware):
    """Keeps what ``run_after_response`` is given during a request and runs it, in order,
    when the response is closed. Sync and async capable."""

    def _call(self, request):
        waiting: list[Callable[[], None]] = []
        token = _waiting.set(waiting)
        try:
            response = self.get_response(request)
        finally:
            _waiting.reset(token)
        return _later(response, waiting)

    async def _acall(self, request):
        waiting: list[Callable[[], None]] = []
        token = _waiting.set(waiting)
        try:
            response = await self.get_response(request)
        finally:
            _waiting.reset(token)
        return _later(response, waiting)


def _later(response, waiting: list[Callable[[], None]]):
    """``response``, which runs ``waiting`` when closed (``HttpResponseBase.close`` calls
    its resource closers); at once if it was already closed."""

    def run_waiting() -> None:
        while waiting:
            _run(waiting.pop(0))

    if getattr(response, "closed", False):
        run_waiting()
    else:
        response._resource_closers.append(run_waiting)
    return response
