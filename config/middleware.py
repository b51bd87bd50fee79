"""Request-level guards that must run before any view reads the body."""

from django.conf import settings
from django.utils.translation import gettext as _

from config.api_errors import error_response


class RequestSizeLimitMiddleware:
    """Refuse a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE with a 413 JSON error.

    Django enforces that limit only when `request.body` or a form is read, and as a 400;
    DRF's parsers read the stream and never check it. Checking the declared length here
    covers both. Without a Content-Length header Django reads no body at all.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit:
            return error_response(
                status=413,
                code="request_too_large",
                detail=_("El cuerpo de la petición supera los %(limit)d bytes.") % {"limit": limit},
            )
        return self.get_response(request)
