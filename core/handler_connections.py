"""Error pages close the database connections they open.

Under ASGI Django renders the answer to an exception (a 404, a 403, a 500) through
``convert_exception_to_response``, which calls the error handler with
``sync_to_async(thread_sensitive=False)``: in a thread of a pool, not the request's. A
query made there (the header's bell, ``notices.context_processors``; the signed-in user)
opens a connection of that thread, and the end of the request, which closes the request
thread's connections (``close_old_connections``), never reaches it: the connection stayed
open, idle, one per pool thread, and once PostgreSQL dropped it every later page rendered
in that thread failed on it. Under WSGI and the test client the handler runs in the
request's thread, its connection already open: nothing changes there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.db import connections
from django.http import HttpResponse


def _opened() -> set[str]:
    """The aliases of this thread's connections that are open now."""
    return {
        wrapper.alias
        for wrapper in connections.all(initialized_only=True)
        if wrapper.connection is not None
    }


def closes_new_connections(handler: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``handler`` (a Django error view: ``handler404``, ``handler403``, ``handler500``),
    closing when it returns or raises every database connection of the current thread that
    it opened, unless a transaction holds it. The handlers render their page before they
    return, so the answer is unchanged."""

    @functools.wraps(handler)
    def closing(request, *args, **kwargs):
        before = _opened()
        try:
            return handler(request, *args, **kwargs)
        finally:
            for wrapper in connections.all(initialized_only=True):
                opened_here = wrapper.connection is not None and wrapper.alias not in before
                if opened_here and not wrapper.in_atomic_block:
                    wrapper.close()

    return closing
