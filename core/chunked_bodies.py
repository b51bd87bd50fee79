"""WSGI and ASGI wrappers that give Django the length of a chunked request body, so that
``core.request_size.RequestSizeLimitMiddleware`` can measure it (413 past the limit)."""

import io

from django.conf import settings

from core.request_size import is_chunked


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
