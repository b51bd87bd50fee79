"""Rate limits for writes.

A view opts in with `throttle_scope = "<scope>"`, the scope's rate being in
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]. Reads are never counted: a client polling a table
must not use up the budget it needs to move.

The counters live in the cache (Redis in production). When the cache does not answer the
limit fails open: the request goes through and one warning is logged for it, because a
cache outage must not stop play (issue 13, finding 4).
"""

import logging

from rest_framework.throttling import ScopedRateThrottle

from core.client_address import client_address
from core.faults import CACHE_ERRORS

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ScopedWriteRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle that lets safe methods through uncounted.

    Works on a plain Django request too (accounts.views uses it for the browser login):
    it needs only `request.method`, `request.user` and `request.META`.
    A cache error lets the request through (fail open) and is logged once for it.
    """

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as error:
            logger.warning(
                "rate limit %r not checked, the cache is unavailable (%s: %s): request let through",
                getattr(view, "throttle_scope", None),
                type(error).__name__,
                error,
            )
            return True

    def get_ident(self, request) -> str:
        """An anonymous client is counted by ``core.client_address`` (not by an
        ``X-Forwarded-For`` it wrote itself)."""
        return client_address(request)
