"""The body size limit: a request body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused
before any view reads it (413), and a chunked body Django cannot measure is refused (411)."""

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _

from core.api_errors import error_response


class RequestSizeLimitMiddleware(MiddlewareMixin):
    """Refuse a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE with a 413 JSON error.

    Django enforces that limit only when `request.body` or a form is read, and as a 400;
    DRF's parsers read the stream and never check it. Checking the declared length here
    covers both. Without a Content-Length header Django reads no body at all, so a body
    sent with ``Transfer-Encoding: chunked`` that the server could not hand over with a
    length (the readers of ``core.chunked_bodies`` did not measure it: Django's runserver)
    is refused with ``411 length_required`` instead of being taken for an empty one.
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


def is_chunked(environ) -> bool:
    """True when the request (a WSGI environ or ``request.META``) says its body comes in
    chunks (``Transfer-Encoding: ..., chunked``)."""
    codings = environ.get("HTTP_TRANSFER_ENCODING", "")
    return "chunked" in [coding.strip().lower() for coding in codings.split(",")]
