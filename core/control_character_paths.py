"""A request path holding a control character is a 404 before any view runs."""

from django.http import Http404
from django.utils.deprecation import MiddlewareMixin


class ControlCharacterPathMiddleware(MiddlewareMixin):
    """A path holding a control character (U+0000-U+001F, U+007F: ``/partida/%00/``) is a
    404 before any view runs: no route takes one, and a NUL given to PostgreSQL in a query
    is an error, not a miss. The answer is the site's 404 (JSON under ``/api/``)."""

    def process_request(self, request):
        if any(ord(character) < 0x20 or ord(character) == 0x7F for character in request.path):
            raise Http404("control character in the path")
        return None
