"""The OpenAPI schema's error answers: every operation declares the error contract
(``ApiError``, ``core.api_errors.ApiErrorSerializer``) on each 4xx it can answer, and on
its 503, so a generated client parses an error body into a typed object instead of
nothing.

``ErrorContractSchema`` (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``) adds the answers
every endpoint shares, from what the operation is: 400 for a write or a query
parameter, 401 wherever a token or session is read, 403 where a sign-in or a CSRF check
is needed, 404 for a path with an id, 413 and 415 for a body, 429 for a write, 503
always. A view declares its own refusals (409, 422, a 403 of its own) with
``api_error(...)`` in ``extend_schema(responses=...)``; those are kept as declared.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse

from core.api_errors import ApiErrorSerializer

WRITES = ("POST", "PUT", "PATCH", "DELETE")

#: What each shared status means, as its answer's description says it.
SHARED = {
    400: "invalid (per field in fields), malformed_json, or a parameter's own code "
    "(invalid_page_size, invalid_since_version, invalid_wait, ...).",
    401: "not_authenticated (no token or session), authentication_failed (a bad token).",
    403: "permission_denied, csrf_failed (a session write without X-CSRFToken).",
    404: "not_found: no such object, or not one of yours.",
    413: "request_too_large: a body over 64 KiB.",
    415: "unsupported_media_type: a body that is not application/json.",
    429: "throttled, with retry_after (also the Retry-After header).",
    503: "unavailable, with retry_after: the database or the cache dropped the request; "
    "nothing changed, safe to retry.",
}


def api_error(description: str) -> OpenApiResponse:
    """An error answer for ``extend_schema(responses={status: api_error("...")})``: the
    ``ApiError`` body, with ``description`` naming the codes it may carry."""
    return OpenApiResponse(response=ApiErrorSerializer, description=description)


class ErrorContractSchema(AutoSchema):
    """drf-spectacular's ``AutoSchema`` with the error contract declared on every
    operation (the statuses in ``SHARED`` that apply to it, see the module)."""

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:  # excluded from the schema
            return None
        responses = operation.setdefault("responses", {})
        for status in self._shared_statuses(operation):
            responses.setdefault(
                str(status),
                self._get_response_for_code(api_error(SHARED[status]), str(status)),
            )
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _shared_statuses(self, operation: dict) -> list[int]:
        write = self.method in WRITES
        in_query = any(p.get("in") == "query" for p in operation.get("parameters", []))
        open_to_anyone = {} in operation.get("security", [{}])
        statuses = []
        if write or in_query:
            statuses.append(400)
        if self.view.get_authenticators():
            statuses.append(401)
        if write or not open_to_anyone:
            statuses.append(403)
        if "{" in self.path:
            statuses.append(404)
        if write and self.method != "DELETE" or "requestBody" in operation:
            statuses += [413, 415]
        if write:
            statuses.append(429)
        statuses.append(503)
        return statuses
