"""Request-level guards that must run before any view reads the body."""

import io

from django.conf import settings
from django.middleware.common import CommonMiddleware
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from core.api_errors import API_PREFIX, error_response


class RequestSizeLimitMiddleware:
    """Refuse a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE with a 413 JSON error.

    Django enforces that limit only when `request.body` or a form is read, and as a 400;
    DRF's parsers read the stream and never check it. Checking the declared length here
    covers both. Without a Content-Length header Django reads no body at all, so a body
    sent with ``Transfer-Encoding: chunked`` that the server could not hand over with a
    length (``ChunkedBodyReader`` did not run: Django's runserver, or ASGI) is refused with
    ``411 length_required`` instead of being taken for an empty one (issue 13, finding 12).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if is_chunked(request.META) and not request.META.get("CONTENT_LENGTH"):
            return error_response(
                status=411,
                code="length_required",
                detail=_("Envía el cuerpo con Content-Length (no por trozos)."),
            )
        if limit is not None and length > limit:
            return error_response(
                status=413,
                code="request_too_large",
                detail=_("El cuerpo de la petición supera los %(limit)d bytes.") % {"limit": limit},
            )
        return self.get_response(request)


class PrivateApiAnswersMiddleware:
    """Every answer under ``/api/`` that did not choose its own ``Cache-Control`` gets
    ``max-age=0, no-cache, no-store, must-revalidate, private``: they hold a player's
    tiles (R31), e-mail or token, and neither a shared cache nor the browser's disk should
    keep them. The table's GET chooses ``private, no-cache`` so that its ETag still
    answers 304 (tables.api.tables.TableDetailApi).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(API_PREFIX) and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response


def is_chunked(environ) -> bool:
    """True when the request (a WSGI environ or ``request.META``) says its body comes in
    chunks (``Transfer-Encoding: ..., chunked``)."""
    codings = environ.get("HTTP_TRANSFER_ENCODING", "")
    return "chunked" in [coding.strip().lower() for coding in codings.split(",")]


class ChunkedBodyReader:
    """WSGI middleware (``config.wsgi``) that gives Django the length of a chunked body.

    gunicorn decodes ``Transfer-Encoding: chunked`` and marks ``wsgi.input`` as ending with
    the body (``wsgi.input_terminated``, a WSGI extension), but sets no ``CONTENT_LENGTH``,
    and Django reads a body of ``CONTENT_LENGTH`` bytes: none. This reads at most
    ``DATA_UPLOAD_MAX_MEMORY_SIZE + 1`` bytes into memory and sets ``CONTENT_LENGTH`` to
    what it read, so ``RequestSizeLimitMiddleware`` then answers 413 past the limit and
    the view reads the body as usual. Without ``wsgi.input_terminated`` the stream may not
    end with the body (Django's runserver hands over the raw socket), so nothing is read
    and the request gets 411.
    """

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if (
            is_chunked(environ)
            and not environ.get("CONTENT_LENGTH")
            and environ.get("wsgi.input_terminated")
        ):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            body = _read_at_most(environ["wsgi.input"], None if limit is None else limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.application(environ, start_response)


def _read_at_most(stream, size: int | None) -> bytes:
    """Read ``stream`` to its end or ``size`` bytes, whichever comes first."""
    parts: list[bytes] = []
    read = 0
    while size is None or read < size:
        part = stream.read(65536 if size is None else min(65536, size - read))
        if not part:
            break
        parts.append(part)
        read += len(part)
    return b"".join(parts)


class ApiAwareCommonMiddleware(CommonMiddleware):
    """Django's ``CommonMiddleware`` without the trailing-slash redirect under ``/api/``.

    ``APPEND_SLASH`` answers a path without its final ``/`` with a redirect, which a client
    follows with a GET (a POSTed move would be dropped) and which, with ``DEBUG``, is a 500
    for a POST. An API path without its slash is simply not found: ``404 not_found`` in
    the error contract (``core.api_errors.page_not_found``). Pages keep the redirect."""

    def should_redirect_with_slash(self, request) -> bool:
        if request.path_info.startswith(API_PREFIX):
            return False
        return super().should_redirect_with_slash(request)
