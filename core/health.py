"""``GET /healthz``: is this web process able to serve? For the load balancer.

Answered by ``HealthCheckMiddleware``, first in ``MIDDLEWARE``, so the answer does not
depend on the ``Host`` the balancer sends (often the container's address, not in
``ALLOWED_HOSTS``), on the HTTPS redirect, on sessions or on rate limits. It checks the
database (``SELECT 1``), the cache (a write and a read back) and the Celery broker (a
connection), and answers ``200 {"status": "ok"}`` or ``503 {"status": "unavailable",
"failed": ["cache", ...]}``: the failed checks' names and nothing else. What went wrong
(host names, exception text) goes to the log only.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from celery import current_app
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponseNotAllowed, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.utils.deprecation import MiddlewareMixin

logger = logging.getLogger(__name__)

PATH = "/healthz"
BROKER_TIMEOUT_SECONDS = 2


def check_database() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def check_cache() -> bool:
    value = secrets.token_hex(8)
    cache.set("healthz", value, timeout=10)
    return cache.get("healthz") == value


def check_broker() -> bool:
    # The project's Celery app (config.celery_app, loaded with the settings) is the current one.
    with current_app.connection_for_write() as broker:
        broker.ensure_connection(max_retries=0, timeout=BROKER_TIMEOUT_SECONDS)
        return broker.connected


#: name -> check; a check passes by returning True, and fails by returning anything else
#: or raising.
CHECKS: dict[str, Callable[[], bool]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
}


def failed_checks() -> list[str]:
    """The names of the checks that fail now, in ``CHECKS`` order; each failure's detail
    is logged (warning) with its exception."""
    failed = []
    for name, check in CHECKS.items():
        try:
            passed = check() is True
        except Exception:  # any failure of a dependency is "down", never a 500
            logger.warning("health check %s failed", name, exc_info=True)
            passed = False
        else:
            if not passed:
                logger.warning("health check %s failed: wrong answer", name)
        if not passed:
            failed.append(name)
    return failed


def health_response(request) -> JsonResponse | HttpResponseNotAllowed:
    """The ``/healthz`` answer for ``request`` (GET or HEAD; others 405)."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    failed = failed_checks()
    if failed:
        response = JsonResponse({"status": "unavailable", "failed": failed}, status=503)
    else:
        response = JsonResponse({"status": "ok"})
    add_never_cache_headers(response)
    return response


class HealthCheckMiddleware(MiddlewareMixin):
    """Answers ``/healthz`` itself, before every other middleware (put it first). Sync
    and async capable (``MiddlewareMixin``), like every middleware here: one sync-only
    middleware would make an ASGI server hold a thread for each waiting long poll."""

    def process_request(self, request):
        if request.path_info == PATH:
            return health_response(request)
        return None
