"""``Cache-Control`` for the answers that hold one player's own data: the API's and the
pages a signed-in player sees are never kept by a shared cache or the browser's disk."""

from django.utils.cache import add_never_cache_headers
from django.utils.deprecation import MiddlewareMixin

from core.api_errors import API_PREFIX


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
