"""Rate limits for writes.

A view opts in with `throttle_scope = "<scope>"`, the scope's rate being in
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]. Reads are never counted: a client polling a table
must not use up the budget it needs to move.
"""

from rest_framework.throttling import ScopedRateThrottle

from config.client_address import client_address

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ScopedWriteRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle that lets safe methods through uncounted.

    Works on a plain Django request too (accounts.views uses it for the browser login):
    it needs only `request.method`, `request.user` and `request.META`.
    """

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_ident(self, request) -> str:
        """An anonymous client is counted by ``config.client_address`` (not by an
        ``X-Forwarded-For`` it wrote itself)."""
        return client_address(request)
