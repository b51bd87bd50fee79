"""The refusals of the table service, each with a stable ``code`` (and a rule id where one
applies). They are DRF ``APIException`` subclasses so the API serves them as
``{"code", "detail", "rule"?, ...}`` (``config.api_errors``); the pages show ``detail``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException

from dominoes import IllegalMove

#: Engine refusals that mean "the table moved on, reload it" rather than "bad move".
_CONFLICT_CODES = {"not_your_turn", "hand_over", "hand_in_progress"}


class TableError(APIException):
    """A refused request. ``code``: stable snake_case; ``rule``: RULES.md id or ``None``;
    ``extra``: more keys for the JSON body (e.g. the current ``version``)."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = _("Petición rechazada.")

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status_code: int | None = None,
        rule: str | None = None,
        extra: dict | None = None,
    ) -> None:
        super().__init__(detail=detail, code=code)
        self.code = code
        self.rule = rule
        self.extra = extra or {}
        if status_code is not None:
            self.status_code = status_code


def refused_move(error: IllegalMove) -> TableError:
    """The API refusal for an engine ``IllegalMove``: its code and rule, 409 when the table
    moved on (``not_your_turn``, ``hand_over``), else 400."""
    conflict = error.code in _CONFLICT_CODES
    return TableError(
        error.code,
        error.message,
        status_code=status.HTTP_409_CONFLICT if conflict else status.HTTP_400_BAD_REQUEST,
        rule=error.rule,
    )


def not_found() -> TableError:
    """The answer to anyone who is not seated at a table: it does not exist for them."""
    return TableError("not_found", str(_("No encontrado.")), status_code=404)
