"""Django's trailing-slash redirect for the pages only: an API path without its final ``/``
is not found."""

from django.middleware.common import CommonMiddleware

from core.api_errors import API_PREFIX


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
