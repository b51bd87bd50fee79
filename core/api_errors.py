"""Every API error as one JSON shape: {"code": ..., "detail": ..., ...}.

Clients branch on `code`, a stable snake_case string; `detail` is human text in the
request's language and may change. Extra keys:

- "fields": for validation errors, DRF's per-field messages, e.g.
  {"code": "invalid", "detail": "...", "fields": {"password": ["..."]}}.
- "rule": the rule id (RULES.md / RECORD.md) when the exception carries one.
- "retry_after": seconds to wait, for "throttled" and "unavailable" (also in the
  Retry-After header).
- whatever an exception puts in its `extra` mapping (e.g. the current table version).

To raise a domain error from a view or service, subclass APIException::

    class StaleVersion(APIException):
        status_code = 409
        code = "stale_version"
        default_detail = _("La mesa ha cambiado; vuelve a cargarla.")

and optionally set `rule` / `extra` on the class or the instance. A `code` attribute
always wins over the mapping below.

A dropped database or cache connection (`core.faults.UNAVAILABLE`) is not a 500 but a
`503 unavailable` with `Retry-After`: JSON under /api/, a plain page elsewhere. The
request's transaction rolled back, so retrying it is safe.
"""

import functools
import logging
import math
import sys

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.views import exception_handler as drf_exception_handler

from core.faults import RETRY_AFTER_SECONDS, UNAVAILABLE
from core.handler_connections import closes_new_connections

API_PREFIX = "/api/"
logger = logging.getLogger(__name__)

# DRF's default_code where it is not already the code we promise clients.
_CODE_FOR = {
    exceptions.ParseError: "malformed_json",
}


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    code = "request_too_large"
    default_detail = gettext_lazy("El cuerpo de la petición es demasiado grande.")


class ServiceUnavailable(exceptions.APIException):
    """A backing service (database, cache) dropped the request: try again shortly."""

    status_code = 503
    code = "unavailable"
    default_detail = gettext_lazy(
        "El servicio no está disponible en este momento. Vuelve a intentarlo en unos segundos."
    )


class ApiErrorSerializer(serializers.Serializer):
    """The error contract's body as the OpenAPI schema describes it (component
    ``ApiError``, declared on every 4xx answer by ``core.api_schema``): used only for the
    schema, the body itself is written by ``api_exception_handler`` and ``error_body``.
    ``code`` and ``detail`` are always there; every other key only with the errors that
    carry it."""

    code = serializers.CharField(
        help_text="Stable snake_case: what a client branches on (docs/api.md, the codes)."
    )
    detail = serializers.CharField(help_text="Human text in the request's language; may change.")
    rule = serializers.CharField(
        required=False, help_text='The rule id (RULES.md) the refusal comes from, "R14".'
    )
    reason = serializers.CharField(
        required=False,
        help_text="A refused move: the engine's English sentence; malformed_json: what is "
        "wrong with the body; csrf_failed: DRF's sentence.",
    )
    fields = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="Validation errors by field: a list of messages, or for a list's or a "
        'nested body\'s field an object of the same shape, {"others": {"0": ["..."]}}.',
    )
    version = serializers.IntegerField(
        required=False,
        help_text="stale_version, invalid_since_version: the table's current version.",
    )
    retry_after = serializers.IntegerField(
        required=False,
        help_text="throttled, unavailable: seconds to wait (also the Retry-After header).",
    )
    absent_seat = serializers.IntegerField(
        required=False, help_text="turn_expired: the seat that ran out of time (R27)."
    )
    table = serializers.IntegerField(
        required=False, help_text="rematch_exists: the rematch's table id."
    )
    until = serializers.DateTimeField(
        required=False, help_text="suspended: when the suspension ends (UTC)."
    )
    profiles = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="invalid_table for unknown rules: the profiles offered.",
    )


def _log_unavailable(request, error: BaseException) -> None:
    logger.error(
        "503 unavailable for %s %s: %s: %s",
        getattr(request, "method", "?"),
        getattr(request, "path", "?"),
        type(error).__name__,
        error,
        exc_info=error,
    )


def error_body(*, code: str, detail, **extra) -> dict:
    """The error contract's body: ``code``, ``detail`` (as text), then ``extra``'s keys."""
    return {"code": code, "detail": str(detail), **extra}


def error_response(*, status: int, code: str, detail, **extra) -> HttpResponse:
    """A JSON error outside DRF (middleware, Django's 404/500 handlers, ``read_only``'s
    405), written by DRF's own ``JSONRenderer`` as DRF writes its answers: the same bytes
    (compact, UTF-8 text as itself, lone surrogates as U+FFFD) and ``Content-Type``."""
    renderer = JSONRenderer()
    body = renderer.render(_writable(error_body(code=code, detail=detail, **extra)))
    return HttpResponse(body, status=status, content_type=renderer.media_type)


def _code_for(exc: exceptions.APIException) -> str:
    explicit = getattr(exc, "code", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    for cls, code in _CODE_FOR.items():
        if isinstance(exc, cls):
            return code
    detail_code = getattr(exc.detail, "code", None)
    if isinstance(detail_code, str) and detail_code:
        return detail_code
    return exc.default_code


def _detail_and_fields(exc: exceptions.APIException) -> tuple[str, dict | None]:
    detail = exc.detail
    if isinstance(detail, dict) and _no_data(detail):
        # DRF writes this one in English without gettext: a body that is JSON ``null``
        message = exceptions.ErrorDetail(_("No se enviaron datos: el cuerpo es null."), "null")
        detail = {**detail, "non_field_errors": [message]}
    if isinstance(detail, dict):
        return _("Los datos enviados no son válidos."), detail
    if isinstance(detail, list):
        first = detail[0] if detail else _("Los datos enviados no son válidos.")
        return str(first), {"non_field_errors": detail}
    return str(detail), None


def _no_data(fields: dict) -> bool:
    """Whether ``fields`` is DRF's answer to a body of JSON ``null`` (``Serializer.errors``:
    one non-field error of code ``null``)."""
    errors = fields.get("non_field_errors")
    return (
        isinstance(errors, list)
        and len(errors) == 1
        and getattr(errors[0], "code", None) == "null"
        and str(errors[0]) == "No data provided"
    )


def _writable(value):
    """``value`` (a field's error list, or a dict or list of them) with every lone
    surrogate (U+D800-U+DFFF) written U+FFFD: a message that quotes the input (a choice's
    "«\\ud800» no es una de las opciones.") must still encode as UTF-8, or the 400 became
    a 500 while being written."""
    if isinstance(value, dict):
        return {key: _writable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_writable(item) for item in value]
    if isinstance(value, str) and any(0xD800 <= ord(char) <= 0xDFFF for char in value):
        return "".join("\ufffd" if 0xD800 <= ord(char) <= 0xDFFF else char for char in value)
    return value


def api_exception_handler(exc, context):
    """DRF EXCEPTION_HANDLER: DRF's handling (headers, auth), then our body shape.

    Returns None for anything that is not an API error, so Django turns it into a 500
    (JSON for /api/ paths, see server_error below) and it reaches the error log.
    """
    if isinstance(exc, UNAVAILABLE):
        _log_unavailable(context.get("request"), exc)
        exc = ServiceUnavailable()
    if isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None

    code = _code_for(exc)
    detail, fields = _detail_and_fields(exc)
    fields = _writable(fields)
    reason = None
    if isinstance(exc, exceptions.PermissionDenied) and detail.startswith("CSRF Failed"):
        code, reason = "csrf_failed", detail
        detail = _(
            "Falta la comprobación CSRF de esta sesión: recarga la página y vuelve a "
            "intentarlo, o usa un token en la cabecera Authorization."
        )
    elif code == "malformed_json":
        reason = detail
        detail = _("El cuerpo de la petición no es JSON válido.")
    body = error_body(code=code, detail=detail)
    if reason:
        # CSRF: DRF's English sentence, for the developer; malformed_json: what is wrong
        # with the body, in the request's language (core.parsers)
        body["reason"] = reason
    if fields is not None:
        body["fields"] = fields
    rule = getattr(exc, "rule", None)
    if rule:
        body["rule"] = rule
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        # One number in both places: DRF's header truncates, a client must not retry early.
        body["retry_after"] = max(1, math.ceil(exc.wait))
        response["Retry-After"] = str(body["retry_after"])
    if isinstance(exc, ServiceUnavailable):
        body["retry_after"] = RETRY_AFTER_SECONDS
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    body.update(getattr(exc, "extra", None) or {})
    response.data = body
    return response


#: The methods a ``read_only`` view answers, as its ``Allow`` header lists them.
READS = ("GET", "HEAD")


def read_only(view):
    """``view`` for ``GET`` and ``HEAD`` only: any other method (``OPTIONS`` too) is
    ``405 method_not_allowed`` in the error contract, before the view signs anyone in.
    Every answer says ``Allow: GET, HEAD`` (RFC 9110: the methods the path answers; a
    DRF view's own answers listed ``OPTIONS``, which is refused here). For the OpenAPI
    schema and its Swagger page, whose own answers to another method were YAML, an
    HTML 405, a 500 (``OPTIONS``) or, for a session without a CSRF token, the pages'
    HTML 403. Exempt from Django's CSRF check, which would answer such a write with
    that HTML page first: nothing here writes."""

    @csrf_exempt
    @functools.wraps(view)
    def only_reads(request, *args, **kwargs):
        if request.method in READS:
            response = view(request, *args, **kwargs)
        else:
            detail = exceptions.MethodNotAllowed(request.method).detail
            response = error_response(status=405, code="method_not_allowed", detail=detail)
        response["Allow"] = ", ".join(READS)
        return response

    return only_reads


@closes_new_connections
def page_not_found(request, exception):
    """handler404: JSON under /api/ (unknown endpoint), Django's page elsewhere."""
    if request.path.startswith(API_PREFIX):
        return error_response(status=404, code="not_found", detail=_("No encontrado."))
    return defaults.page_not_found(request, exception)


@closes_new_connections
def permission_denied(request, exception):
    """handler403: Django's page (``403.html``). Under ``/api/`` DRF answers its own 403s;
    a ``PermissionDenied`` raised outside a DRF view gets the page there too."""
    return defaults.permission_denied(request, exception)


@closes_new_connections
def server_error(request):
    """handler500: JSON under /api/, Django's page elsewhere. An unhandled database or
    cache outage (raised outside a DRF view, e.g. by middleware or a page) is a 503."""
    error = sys.exc_info()[1]
    if isinstance(error, UNAVAILABLE):
        return unavailable(request)
    if request.path.startswith(API_PREFIX):
        return error_response(
            status=500, code="server_error", detail=_("Error interno del servidor.")
        )
    return defaults.server_error(request)


def unavailable(request) -> HttpResponse:
    """``503`` with ``Retry-After``: ``{"code": "unavailable", ...}`` under /api/, else the
    plain ``503.html`` page (rendered without the request: no session, no database)."""
    if request.path.startswith(API_PREFIX):
        response = error_response(
            status=503,
            code="unavailable",
            detail=ServiceUnavailable.default_detail,
            retry_after=RETRY_AFTER_SECONDS,
        )
    else:
        page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_SECONDS})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
