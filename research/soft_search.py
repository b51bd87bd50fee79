"""Abuela Quelonia with soft playouts: an experiment of issue 20 (session 19), not a bot.

Her search plays every legal move out once in each sampled deal with the greedy policy,
which draws nothing at random: in one deal each move gets one line of play. Here every
seat of the playout plays the greedy policy's score *softly* instead (odds
``e ** softness`` per point, ``quelonia_screen.soft_choice``), the same random stream for
every move of one deal (common random numbers), and the last ``endgame`` tiles are solved
as she solves them. Used by ``research/quelonia_screen.py`` (``--variant
LABEL:softness=S``) and ``bench/soft_arena.py``.
"""

from __future__ import annotations

import math
import random
import time

from dominoes.bots.endgame import solved_playout
from dominoes.bots.simulate import world_position
from dominoes.playout import ends_after
from research.lab import LabQuelonia


class SoftQuelonia(LabQuelonia):
    """``LabQuelonia`` whose playouts are soft (module doc); ``softness``: the odds' exponent
    per point of the greedy score (larger: closer to greedy). Other arguments as hers."""

    name = "quelonia"

    def __init__(self, softness: float = 1.0, **arguments) -> None:
        super().__init__(**arguments)
        self.softness = softness
        self._stream: random.Random | None = None

    def _simulate(self, view, knowledge, moves, rng, start):
        self._stream = rng
        return super()._simulate(view, knowledge, moves, rng, start)

    def _playout(self, view, knowledge, rules, model):
        tiles = int(self.option("endgame", rules, view.seats))
        solved = None
        if tiles:
            solved = solved_playout(model.value, view.seat, model.partnerships, tiles)
        softness = self.softness
        return lambda pos, stream: soft_playout(pos, stream, solved, tiles, softness)

    def _play_batch(self, playout, view, rules, model, keys, sampled, totals, deadline) -> bool:
        for (holdings, stock), weight in sampled:
            try:
                root = world_position(view, rules, holdings, stock)
            except ValueError:
                continue
            seed = self._stream.getrandbits(64)
            values, taken = [], []
            for tile, end in keys:
                pos = root.copy()
                pos.play(tile, end)
                _, winners, hand_points, _ = playout(pos, random.Random(seed))
                values.append(model.value(winners, hand_points))
                taken.append(model.hand_points(winners, hand_points))
            totals.add_deal(weight, values, taken)
            if time.thread_time() > deadline:
                return False
        return True


def soft_choice(pos, rng: random.Random, sharpness: float) -> tuple[int, int]:
    """A play of the seat to act drawn with odds ``e ** (sharpness * score)``, the score
    the greedy policy's (``playout.greedy``: the tile's value, 4 for a double, 1.5 per own
    tile that follows the new ends, up to three); going out is always played."""
    plays = pos.legal_plays()
    if len(plays) == 1:
        return plays[0]
    tables = pos.tables
    hand = pos.hands[pos.turn]
    scores = []
    for tile, end in plays:
        rest = hand & ~(1 << tile)
        if not rest:
            return tile, end
        if end < 0:
            fit = 0
        else:
            left, right = ends_after(tables, pos.left, pos.right, tile, end)
            fit = (rest & (tables.pip_mask[left] | tables.pip_mask[right])).bit_count()
        scores.append(tables.value[tile] + 4 * (tables.doubles >> tile & 1) + 1.5 * min(fit, 3))
    top = max(scores)
    weights = [math.exp(sharpness * (s - top)) for s in scores]
    return rng.choices(plays, weights)[0]


def soft_playout(pos, rng: random.Random, solved, tiles: int, sharpness: float) -> tuple:
    """Play ``pos`` out with ``soft_choice`` for every seat; with ``tiles`` > 0, once that
    many are left in the hands and the stock is empty, ``solved`` plays the rest."""
    while pos.end is None:
        if tiles and pos.tiles_in_play() <= tiles and pos.drawn >= len(pos.stock):
            return solved(pos)
        if not pos.legal_plays():
            pos.draw()  # a draw-or-pass choice (draw_optional): draw, as greedy does
            continue
        pos.play(*soft_choice(pos, rng, sharpness))
    return pos.result()
