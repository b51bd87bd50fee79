"""The refusals of the table service, each with a stable ``code`` (and a rule id where one
applies). They are DRF ``APIException`` subclasses so the API serves them as
``{"code", "detail", "rule"?, ...}`` (``core.api_errors``); the pages show ``detail``.
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


#: What a player reads for each engine refusal, in their language; the engine's own
#: English sentence (with the tiles and pips involved) is kept as ``reason``.
REFUSAL_TEXT = {
    "not_your_turn": _("No es tu turno."),
    "tile_not_in_hand": _("No tienes esa ficha."),
    "wrong_lead": _("Esa no es la ficha con la que hay que salir."),
    "tile_does_not_fit": _("Esa ficha no encaja en esa punta."),
    "end_required": _("Esa ficha encaja en las dos puntas: elige una."),
    "cannot_draw_with_play": _("No puedes robar: tienes una ficha que encaja."),
    "cannot_pass_with_play": _("No puedes pasar: tienes una ficha que encaja."),
    "must_draw": _("No puedes pasar: aún quedan fichas en el pozo."),
    "wrong_draw": _("No se puede robar: el pozo está vacío."),
    "hand_over": _("La mano ha terminado."),
    "hand_in_progress": _("La mano aún no ha terminado."),
    "bad_deal": _("El reparto no es válido."),
    "redeal_required": _("Hay que repartir de nuevo."),
}


def refused_move(error: IllegalMove, detail: str | None = None) -> TableError:
    """The API refusal for an engine ``IllegalMove``: its code and rule, 409 when the table
    moved on (``not_your_turn``, ``hand_over``), else 400. ``detail`` is in the player's
    language (``REFUSAL_TEXT``, unless a more precise ``detail`` is given); ``reason`` is
    the engine's sentence."""
    conflict = error.code in _CONFLICT_CODES
    return TableError(
        error.code,
        detail or str(REFUSAL_TEXT.get(error.code, error.message)),
        status_code=status.HTTP_409_CONFLICT if conflict else status.HTTP_400_BAD_REQUEST,
        rule=error.rule,
        extra={"reason": error.message},
    )


def not_found() -> TableError:
    """The answer to anyone who is not seated at a table: it does not exist for them."""
    return TableError("not_found", str(_("No encontrado.")), status_code=404)
