"""Garabato, the easy bot."""

from __future__ import annotations

import random

from dominoes.bots.base import Bot
from dominoes.state import Play
from dominoes.view import SeatView

#: How often Garabato plays its heaviest playable tile instead of a random one.
HEAVY_PREFERENCE = 0.6


class Garabato(Bot):
    """Garabato (easy) plays almost at random.

    Six times in ten it plays its heaviest playable tile (the one beginners are told to get
    rid of first), on a random end when it fits both; otherwise any legal play, chosen
    uniformly. It keeps no count and reads nothing from the log.
    """

    name = "garabato"
    display_name = "Garabato"
    level = "easy"

    def choose(self, view: SeatView, rng: random.Random) -> Play:
        moves = list(view.legal_moves)
        if rng.random() < HEAVY_PREFERENCE:
            top = max(move.tile.value for move in moves)
            moves = [move for move in moves if move.tile.value == top]
        return moves[rng.randrange(len(moves))]
