"""The refusals of the table service, each with a stable ``code`` (and a rule id where one
applies). They are DRF ``APIException`` subclasses so the API serves them as
``{"code", "detail", "rule"?, ...}`` (``core.api_errors``); the pages show ``detail``.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.exceptions import APIException

from dominoes import IllegalMove
from tables.move_time import move_time_label

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


def fits_neither_end(left: int, right: int) -> str:
    """The ``tile_does_not_fit`` sentence (R11) for a play sent without ``end`` whose tile
    fits neither end of the line, showing pips ``left`` and ``right``."""
    detail = gettext("Esa ficha no encaja en ninguna de las dos puntas (%(left)s y %(right)s).")
    return detail % {"left": left, "right": right}


def not_found() -> TableError:
    """The answer to anyone who is not seated at a table: it does not exist for them."""
    return TableError("not_found", str(_("No encontrado.")), status_code=404)


# --- the service's own refusals, one constructor each --------------------------------------


def _conflict(code: str, detail: str, **options) -> TableError:
    """A 409: the table is not (or no longer) in the state the request needs."""
    return TableError(code, detail, status_code=status.HTTP_409_CONFLICT, **options)


def invite_not_found() -> TableError:
    """404 ``invite_not_found``: an unknown, used or revoked invite."""
    return TableError(
        "invite_not_found",
        gettext("Esta invitación no existe o ya no es válida."),
        status_code=status.HTTP_404_NOT_FOUND,
    )


def creator_only() -> TableError:
    """403 ``creator_only``: a player seated at the table, not its creator, asks for what
    only the creator may do (renewing an invite link, R30). Anyone not seated gets
    ``not_found`` instead: the table does not exist for them."""
    return TableError(
        "creator_only",
        gettext("Solo quien creó la mesa puede renovar sus enlaces de invitación."),
        status_code=status.HTTP_403_FORBIDDEN,
    )


def no_invite_to_renew(seat: int) -> TableError:
    """404 ``invite_not_found``: the creator asks to renew the link of ``seat``, which has
    none (her own seat, a taken one, a bot's, or ``seven_plus_seven``'s seat 3, which goes
    with seat 1's link)."""
    return TableError(
        "invite_not_found",
        gettext("El asiento %(n)d (índice %(seat)d) no tiene un enlace de invitación que renovar.")
        % {"n": seat + 1, "seat": seat},
        status_code=status.HTTP_404_NOT_FOUND,
    )


def unknown_rules(rules: str, offered: list[str]) -> TableError:
    """400 ``invalid_table``: ``rules`` names no profile the service seats; ``profiles``
    lists the ones it does."""
    return TableError(
        "invalid_table",
        gettext("Reglas desconocidas: %(rules)s.") % {"rules": rules},
        extra={"profiles": offered},
    )


def either(values: tuple[int, ...]) -> str:
    """The choices as a player reads them: ``(2, 3, 4)`` gives ``"2, 3 o 4"`` ("2, 3 or 4"
    in English), ``(50,)`` gives ``"50"``."""
    words = [str(value) for value in values]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + gettext(" o ") + words[-1]


def wrong_seat_count(counts: tuple[int, ...]) -> TableError:
    """400 ``invalid_table`` (R2): the profile's tables have one of ``counts`` seats."""
    detail = gettext("Con estas reglas una mesa tiene %(counts)s asientos.")
    return TableError("invalid_table", detail % {"counts": either(counts)}, rule="R2")


def wrong_target(targets: tuple[int, ...], single_hand: bool = False) -> TableError:
    """400 ``invalid_table`` (R25): the profile's targets, in points, are ``targets``;
    with ``single_hand`` one hand decides the match and no target is asked for."""
    if single_hand:
        detail = gettext(
            "Con estas reglas una sola mano decide la partida: no hay meta que elegir."
        )
        return TableError("invalid_table", detail, rule="R25")
    detail = gettext("Con estas reglas la meta es de %(targets)s puntos.")
    return TableError("invalid_table", detail % {"targets": either(targets)}, rule="R25")


def wrong_move_time(days: tuple[int, ...]) -> TableError:
    """400 ``invalid_table`` (R27): the move time, in days, is one of ``days``."""
    detail = gettext("El tiempo por jugada es de %(days)s días.")
    return TableError("invalid_table", detail % {"days": either(days)}, rule="R27")


def wrong_others(two_hands: bool, needed: int, given: int) -> TableError:
    """400 ``invalid_table`` (R29, ``fields.others``): ``others`` does not name one friend
    or bot per other seat (per rival pair when one person holds two hands): ``needed``
    entries, where it has ``given``; the detail says how many when that is what is
    wrong."""
    if two_hands and needed == given:
        detail = gettext("Indica la otra pareja: «friend» o un bot (garabato, nino, quelonia).")
    elif two_hands:
        detail = gettext(
            "Indica solo la otra pareja, una entrada en others: «friend» o un bot "
            "(garabato, nino, quelonia); has indicado %(given)d."
        ) % {"given": given}
    elif needed == given:
        detail = gettext(
            "Indica, para cada otro asiento, «friend» o un bot (garabato, nino, quelonia)."
        )
    else:
        detail = ngettext(
            "Esta mesa tiene %(count)d asiento más: indica %(count)d en others, «friend» o "
            "un bot (garabato, nino, quelonia); has indicado %(given)d.",
            "Esta mesa tiene %(count)d asientos más: indica %(count)d en others, cada uno "
            "«friend» o un bot (garabato, nino, quelonia); has indicado %(given)d.",
            needed,
        ) % {"count": needed, "given": given}
    return TableError("invalid_table", detail, rule="R29", extra={"fields": {"others": [detail]}})


def table_not_open() -> TableError:
    """409 ``table_not_open``: the table no longer waits for this seat's player."""
    return _conflict("table_not_open", gettext("Esta mesa ya no admite jugadores."))


def already_seated() -> TableError:
    """409 ``already_seated``: the user holds another seat at that table."""
    return _conflict("already_seated", gettext("Ya tienes un asiento en esta mesa."))


def table_not_started() -> TableError:
    """409 ``table_not_started`` (R30): seats are still waiting for players."""
    return _conflict("table_not_started", gettext("La partida aún no ha empezado."), rule="R30")


def match_over() -> TableError:
    """409 ``hand_over`` (R25): the match has ended (the engine's code for it)."""
    return _conflict("hand_over", gettext("La partida ha terminado."), rule="R25")


def stale_version(version: int) -> TableError:
    """409 ``stale_version``: the move was made on another ``version`` than the table's,
    which the body gives (``version``)."""
    return _conflict(
        "stale_version",
        gettext("La mesa ha cambiado; vuelve a cargarla."),
        extra={"version": version},
    )


def turn_expired(
    *, absent_seat: int | None, absent_name: str, side: str, move_seconds: int
) -> TableError:
    """409 ``turn_expired`` (R27) as the reader sees it: who ran out of time (seat
    ``absent_seat``, named ``absent_name``, after the table's ``move_seconds``) and that
    the table is over. ``side``: the
    reader ``"lost"`` by it, ``"won"`` by it, their ``"partner"`` ran out, or ``"other"``
    (neither, e.g. a tie for the win at three seats). ``absent_seat`` is in the body."""
    values = {"name": absent_name, "time": move_time_label(move_seconds)}
    if side == "lost":
        detail = gettext(
            "Se acabó tu plazo de %(time)s para jugar: perdiste la partida por ausencia "
            "y la mesa ha terminado."
        )
    elif side == "won":
        detail = gettext(
            "%(name)s agotó su plazo de %(time)s para jugar: ganas la partida por su "
            "ausencia y la mesa ha terminado."
        )
    elif side == "partner":
        detail = gettext(
            "%(name)s, tu pareja, agotó su plazo de %(time)s para jugar: los dos pierden "
            "la partida por ausencia y la mesa ha terminado."
        )
    else:
        detail = gettext(
            "%(name)s agotó su plazo de %(time)s para jugar y perdió por ausencia: la "
            "mesa ha terminado."
        )
    return _conflict(
        "turn_expired", detail % values, rule="R27", extra={"absent_seat": absent_seat}
    )


def not_your_seat() -> TableError:
    """400 ``not_your_seat``: the move names a seat the user does not hold."""
    detail = gettext("No juegas en ese asiento.")
    return TableError("not_your_seat", detail, extra={"fields": {"seat": [detail]}})


def no_such_seat(seat: int, seats: int) -> TableError:
    """400 ``no_such_seat``: a body names ``seat``, which a table of ``seats`` seats
    (numbered from 0) does not have; ``fields.seat`` says which seats there are."""
    detail = gettext(
        "No hay asiento de índice %(seat)d en esta mesa: los índices van del 0 al %(last)d "
        "(asientos 1 a %(seats)d)."
    ) % {"seat": seat, "last": seats - 1, "seats": seats}
    return TableError("no_such_seat", detail, extra={"fields": {"seat": [detail]}})


def unknown_tile(reason: str) -> TableError:
    """400 ``invalid``: the tile named is none of the table's set (``"7-7"`` in
    double-six); ``reason`` is the parser's sentence."""
    return TableError(
        "invalid", gettext("Esa ficha no existe en este juego."), extra={"reason": reason}
    )


def tile_required() -> TableError:
    """400 ``invalid``: a play that names no tile."""
    return TableError("invalid", gettext("Indica la ficha que juegas."))


def end_on_lead() -> TableError:
    """400 ``invalid`` (R11): a lead that names an ``end``; the line has none yet."""
    detail = gettext("La salida no tiene puntas (Regla R11): juega la ficha sin elegir punta.")
    return TableError("invalid", detail, rule="R11", extra={"fields": {"end": [detail]}})


def no_choice_to_draw() -> TableError:
    """400 ``invalid`` (R16): a draw or pass asked for where the profile makes them
    automatic (every profile but ``first_double``)."""
    return TableError(
        "invalid",
        gettext("Aquí solo se juegan fichas: robar y pasar son automáticos."),
        rule="R16",
    )


def bad_cursor() -> TableError:
    """400 ``invalid``: a ``cursor`` for "my tables" that no page gave."""
    return TableError("invalid", gettext("Ese cursor no es válido: vuelve a la primera página."))


def bad_idempotency_key() -> TableError:
    """400 ``invalid``: an ``Idempotency-Key`` that is not 1-128 visible ASCII characters."""
    return TableError("invalid", gettext("Idempotency-Key: de 1 a 128 caracteres ASCII visibles."))


def idempotency_key_reused() -> TableError:
    """422 ``idempotency_key_reused``: the key already answered another request body."""
    return TableError(
        "idempotency_key_reused",
        gettext("Esta Idempotency-Key ya se usó para otra jugada."),
        status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
    )


def table_not_finished() -> TableError:
    """409 ``table_not_finished``: a rematch is offered only once a match has ended."""
    return _conflict("table_not_finished", gettext("La partida aún no ha terminado."))


def no_finished_hand() -> TableError:
    """409 ``no_finished_hand``: the match ended inside its first hand (an abandonment or
    an absence, R26/R27), so it has no finished hand to replay, analyse or share."""
    return _conflict(
        "no_finished_hand",
        gettext("La partida terminó en su primera mano: no hay ninguna mano que repasar."),
    )


def rematch_exists(table_id: int) -> TableError:
    """409 ``rematch_exists``: this table already has its rematch (``table``: its id)."""
    return _conflict(
        "rematch_exists", gettext("Ya se propuso la revancha."), extra={"table": table_id}
    )


def rematch_player_deleted() -> TableError:
    """409 ``rematch_player_deleted``: someone who sat at this table has deleted their
    account, so the same people can never sit again: there is no rematch to offer."""
    return _conflict(
        "rematch_player_deleted",
        gettext("No puede haber revancha: un jugador de esta mesa borró su cuenta."),
    )


def no_rematch_offer() -> TableError:
    """409 ``no_rematch_offer``: there is no rematch offer waiting for this player's answer."""
    return _conflict("no_rematch_offer", gettext("No tienes una revancha que aceptar."))


def invalid_wait(most: int) -> TableError:
    """400 ``invalid_wait``: ``?wait=`` is not a whole number of seconds from 0 to
    ``most``."""
    detail = gettext("wait: un número entero de segundos (de 0 a %(most)d).") % {"most": most}
    return TableError("invalid_wait", detail, extra={"fields": {"wait": [detail]}})


def since_version_ahead(version: int) -> TableError:
    """400 ``invalid_since_version``: ``?since_version=`` is above the table's ``version``
    (a version it never had), answered at once with the current ``version`` instead of
    a 304 or a wait that could never end in a change the caller would notice."""
    detail = gettext(
        "since_version: la mesa va por la versión %(version)d; no puede ser mayor."
    ) % {"version": version}
    return TableError(
        "invalid_since_version",
        detail,
        extra={"fields": {"since_version": [detail]}, "version": version},
    )


def invalid_since_version(*, wait_needs_it: bool = False) -> TableError:
    """400 ``invalid_since_version``: ``?since_version=`` is not a whole number (the
    version the caller holds); with ``wait_needs_it``, a ``?wait=`` came without one."""
    if wait_needs_it:
        detail = gettext("since_version: hace falta con wait (la versión que tienes).")
    else:
        detail = gettext("since_version: la versión que tienes, un número entero.")
    return TableError(
        "invalid_since_version", detail, extra={"fields": {"since_version": [detail]}}
    )
