"""``?page_size=`` for every paginated API list (my tables, the notices): a whole number
from 1 to the list's most, or ``400 invalid_page_size``; never clamped or ignored, so a
client that asks for 1000 rows learns it gets at most 100."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.exceptions import APIException
from rest_framework.pagination import PageNumberPagination

#: The most rows any API list gives in one page.
MAX_PAGE_SIZE = 100


class InvalidPageSize(APIException):
    """400 ``invalid_page_size``, the detail also under ``fields.page_size``."""

    status_code = 400
    code = "invalid_page_size"

    def __init__(self, most: int) -> None:
        detail = gettext("page_size: un número entero de filas (de 1 a %(most)d).") % {"most": most}
        super().__init__(detail=detail, code=self.code)
        self.extra = {"fields": {"page_size": [detail]}}


def page_size_asked(params, *, default: int, most: int = MAX_PAGE_SIZE) -> int:
    """``params["page_size"]`` (a query string's text) as a whole number from 1 to ``most``,
    or ``default`` when absent. Anything else (``0``, ``101``, ``abc``, ``1.5``, empty)
    raises ``InvalidPageSize`` (400 ``invalid_page_size``)."""
    size = params.get("page_size")
    if size is None:
        return default
    digits = len(str(most))
    if not (size.isascii() and size.isdigit() and len(size) <= digits and 1 <= int(size) <= most):
        raise InvalidPageSize(most)
    return int(size)


class CheckedPageSizePagination(PageNumberPagination):
    """DRF's page-number pagination with ``?page_size=`` checked by ``page_size_asked``
    (DRF's own quietly falls back to the default or clamps to ``max_page_size``)."""

    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request) -> int:
        """The page size ``request`` asks for; raises ``InvalidPageSize`` for a bad one."""
        return page_size_asked(
            request.query_params, default=self.page_size, most=self.max_page_size
        )
