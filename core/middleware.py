"""Request-level guards that must run before any view reads the body."""

import io

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import Http404
from django.middleware.common import CommonMiddleware
from django.utils.cache import add_never_cache_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _

from core.api_errors import API_PREFIX, error_response


class RequestSizeLimitMiddleware(MiddlewareMixin):
    """Refuse a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE with a 413 JSON error.

    Django enforces that limit only when `request.body` or a form is read, and as a 400;
    DRF's parsers read the stream and never check it. Checking the declared length here
    covers both. Without a Content-Length header Django reads no body at all, so a body
    sent with ``Transfer-Encoding: chunked`` that the server could not hand over with a
    length (``ChunkedBodyReader`` did not run: Django's runserver, or ASGI) is refused with
    ``411 length_required`` instead of being taken for an empty one (issue 13, finding 12).
    Sync and async capable (``MiddlewareMixin``): see ``core.health.HealthCheckMiddleware``.
    """

    def process_request(self, request):
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
        return None


class SyncAndAsyncMiddleware:
    """A middleware Django can chain either way: sync under WSGI, async under ASGI (where
    one sync-only middleware would run the whole chain in a thread). A subclass writes
    ``_call(request)`` and ``async _acall(request)``; the mode is the chain's."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        return self._call(request)

    def _call(self, request):
        return self.get_response(request)

    async def _acall(self, request):
        return await self.get_response(request)


class AsgiUrlconfMiddleware(SyncAndAsyncMiddleware):
    """Under an ASGI server, route with ``settings.ASGI_ROOT_URLCONF`` (``config.urls_asgi``:
    the table's ``GET`` there is the view that can wait, ``tables.api.waits``); under WSGI
    do nothing. The mode is the chain's (Django builds it async under ASGI when every
    middleware can be), so this costs no thread hop either way."""

    async def _acall(self, request):
        request.urlconf = settings.ASGI_ROOT_URLCONF
        return await self.get_response(request)


class PrivateApiAnswersMiddleware(MiddlewareMixin):
    """Every answer under ``/api/`` that did not choose its own ``Cache-Control`` gets
    ``max-age=0, no-cache, no-store, must-revalidate, private``: they hold a player's
    tiles (R31), e-mail or token, and neither a shared cache nor the browser's disk should
    keep them. The table's GET chooses ``private, no-cache`` so that its ETag still
    answers 304 (tables.api.tables.TableDetailApi). Sync and async capable.
    """

    def process_response(self, request, response):
        if request.path.startswith(API_PREFIX) and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response


class PrivatePagesMiddleware(MiddlewareMixin):
    """A page answered to a signed-in player that did not choose its own
    ``Cache-Control`` gets the same never-cache headers as the API: settings, the data
    download, the e-mail addresses, the inbox and its preferences are that player's own,
    and no shared cache or browser disk should keep them. Placed after authentication, so
    ``request.user`` is the one the view saw; error answers (5xx) are left alone, as
    reading the user then could reach a database that has just failed.
    """

    def process_response(self, request, response):
        user = getattr(request, "user", None)
        if (
            user is not None
            and response.status_code < 500
            and not request.path.startswith(API_PREFIX)
            and not response.has_header("Cache-Control")
            and user.is_authenticated
        ):
            add_never_cache_headers(response)
        return response


class ControlCharacterPathMiddleware(MiddlewareMixin):
    """A path holding a control character (U+0000-U+001F, U+007F: ``/partida/%00/``) is a
    404 before any view runs: no route takes one, and a NUL given to PostgreSQL in a query
    is an error, not a miss. The answer is the site's 404 (JSON under ``/api/``)."""

    def process_request(self, request):
        if any(ord(character) < 0x20 or ord(character) == 0x7F for character in request.path):
            raise Http404("control character in the path")
        return None


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


class AsgiChunkedBodyReader:
    """ASGI middleware (``config.asgi``): ``ChunkedBodyReader`` for uvicorn.

    uvicorn decodes ``Transfer-Encoding: chunked`` into ``http.request`` messages, and
    Django's ``ASGIRequest`` then reads ``Content-Length`` bytes of them: none. This reads
    at most ``DATA_UPLOAD_MAX_MEMORY_SIZE + 1`` bytes, adds a ``content-length`` header
    of what it read (so ``RequestSizeLimitMiddleware`` answers 413 past the limit) and
    hands the body on as one message; whatever the client sends past the limit is
    dropped. Every other request passes untouched."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not _asgi_chunked_without_length(scope["headers"]):
            return await self.application(scope, receive, send)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        first = await _receive_at_most(receive, None if limit is None else limit + 1)
        length = str(len(first.get("body", b""))).encode("ascii")
        scope = {**scope, "headers": [*scope["headers"], (b"content-length", length)]}
        handed = False

        async def replay():
            nonlocal handed
            if not handed:
                handed = True
                return first
            while True:  # the rest of a body past the limit: dropped
                message = await receive()
                if message["type"] != "http.request":
                    return message

        return await self.application(scope, replay, send)


def _asgi_chunked_without_length(headers) -> bool:
    names = {name.lower(): value for name, value in headers}
    if b"content-length" in names:
        return False
    return is_chunked({"HTTP_TRANSFER_ENCODING": names.get(b"transfer-encoding", b"").decode()})


async def _receive_at_most(receive, size: int | None) -> dict:
    """One ``http.request`` message with the body read to its end or ``size`` bytes, or
    the ``http.disconnect`` that came first."""
    parts: list[bytes] = []
    read = 0
    while size is None or read < size:
        message = await receive()
        if message["type"] != "http.request":
            return message
        parts.append(message.get("body", b""))
        read += len(parts[-1])
        if not message.get("more_body", False):
            break
    return {"type": "http.request", "body": b"".join(parts)[:size], "more_body": False}


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
