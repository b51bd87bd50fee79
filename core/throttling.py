"""Rate limits for writes.

A view opts in with `throttle_scope = "<scope>"`, the scope's rate being in
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]. Reads are never counted: a client polling a table
must not use up the budget it needs to move. Nor is a method the view does not answer: DRF
checks the rate limits in ``APIView.initial``, before ``dispatch`` looks up the handler, so
without this a ``PUT`` to a POST-only path would count, and past the limit answer 429
instead of its 405. Refusals DRF makes before the limits (401, 403: authentication and
permissions) never reach them; a refusal by the view itself (a 400) counts, as it must
for guessed passwords.

The counters live in the cache (Redis in production). When the cache does not answer the
limit fails open: the request goes through and one warning is logged for it, because a
cache outage must not stop play.
"""

import logging

from rest_framework.throttling import ScopedRateThrottle

from core.client_address import client_address
from core.faults import CACHE_ERRORS

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ScopedWriteRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle that lets safe methods through uncounted.

    Works on a plain Django request and view too (accounts.views uses it for the browser
    sign-in and sign-up): it needs only `request.method`, `request.user`, `request.META`
    and the view's `throttle_scope` and handlers.
    A cache error lets the request through (fail open) and is logged once for it.
    """

    def allow_request(self, request, view) -> bool:
        """True when the request may go on: a read, a method ``view`` does not answer
        (it gets its 405 uncounted), a view without ``throttle_scope``, a write within the
        scope's rate, or any request while the cache is down. False (DRF then raises
        ``Throttled``, 429) past the rate."""
        if request.method in SAFE_METHODS or not answers(view, request.method):
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


def answers(view, method: str) -> bool:
    """Whether ``view`` (a DRF ``APIView`` or a Django ``View`` instance) has a handler for
    ``method`` (``"PUT"``), as ``dispatch`` looks for one: a name in its
    ``http_method_names`` and a method of that name. Otherwise it answers 405."""
    name = method.lower()
    return name in getattr(view, "http_method_names", ()) and hasattr(view, name)
