"""The bots of Villa Patio (the rules page's "Contra el grupo"): Garabato (easy), Nino
(medium) and Abuela Quelonia (hard).

The one entry point the service uses::

    from dominoes.bots import BOTS, choose_play
    play = choose_play("nino", view, seed=1234)

A bot reads only a ``SeatView`` (R31): ``choose_play`` refuses anything else, so a bot can
never be handed a ``MatchState`` with the other seats' tiles. The hard bot's simulations
run on deals it samples itself from what the view shows.
"""

from __future__ import annotations

from dominoes.bots.base import Bot, make_rng
from dominoes.bots.garabato import Garabato
from dominoes.bots.nino import Nino
from dominoes.bots.quelonia import Quelonia
from dominoes.state import Play
from dominoes.view import SeatView

#: Every bot by name.
BOTS: dict[str, Bot] = {bot.name: bot for bot in (Garabato(), Nino(), Quelonia())}


def choose_play(name: str, view: SeatView, seed: int | bytes | None = None) -> Play:
    """The play bot ``name`` makes in the situation ``view`` shows.

    Returns one of ``view.legal_moves``; the same ``seed`` and view always give the same
    play. Raises ``KeyError`` for an unknown bot, ``TypeError`` when ``view`` is not a
    ``SeatView`` (a bot never sees more than one seat may, R31) and ``ValueError`` when the
    seat has no play to make.
    """
    bot = BOTS[name]
    if type(view) is not SeatView:
        raise TypeError(f"a bot reads a SeatView only (R31), not {type(view).__name__}")
    if not view.legal_moves:
        raise ValueError(f"seat {view.seat} has no play to make")
    if len(view.legal_moves) == 1:
        return view.legal_moves[0]
    play = bot.choose(view, make_rng(name, view, seed))
    if play not in view.legal_moves:  # pragma: no cover - a bot bug; never send it
        raise RuntimeError(f"{bot.name} chose {play}, which is not a legal play")
    return play


__all__ = ["BOTS", "Bot", "choose_play"]
