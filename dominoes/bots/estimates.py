"""What Abuela Quelonia's search adds up (``dominoes.bots.quelonia``): the weighted
totals of her playouts per move (``Totals``), her estimate of each legal move
(``MoveEstimate``), and systematic resampling of sampled deals (``resample``). Pure: no
clock, no randomness of its own beyond the ``random.Random`` it is given."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from dominoes.state import Play


class Totals:
    """Weighted sums of the playouts' outcomes, per move (``Quelonia._simulate``)."""

    def __init__(self, moves: int) -> None:
        self.values = [0.0] * moves
        self.wins = [0.0] * moves
        self.points = [0.0] * moves
        self.weight_sum = 0.0
        self.count = 0
        #: ``(weight, match value of every move)`` per deal played out, in order.
        self.deals: list[tuple[float, list[float]]] = []

    def add_deal(self, weight: float, values: list[float], taken: list[float]) -> None:
        """One sampled deal of ``weight``, every move played out in it: per move, in
        order, its match value (0-1, ``values``) and the points her side took (``taken``)."""
        for index, (value, points) in enumerate(zip(values, taken, strict=True)):
            self.values[index] += weight * value
            self.wins[index] += weight * (points > 0)
            self.points[index] += weight * points
        self.deals.append((weight, values))
        self.weight_sum += weight
        self.count += 1

    def close(self, margin: float) -> bool:
        """Whether the two best moves' match values are less than ``margin`` apart."""
        if self.weight_sum <= 0 or len(self.values) < 2:
            return False
        first, second = sorted(self.values, reverse=True)[:2]
        return (first - second) / self.weight_sum < margin

    def undecided(self, z: float) -> bool:
        """Whether the two best moves' paired difference in match value (deal by deal,
        weighted) is less than ``z`` standard errors: more deals might change the choice."""
        if len(self.values) < 2:
            return False
        first, second = sorted(range(len(self.values)), key=lambda i: -self.values[i])[:2]
        return self.within(first, second, z)

    def within(self, first: int, second: int, z: float) -> bool:
        """Whether move ``first``'s lead in match value over move ``second`` (indices of
        the moves; paired deal by deal, weighted) is less than ``z`` standard errors of
        that difference. False before two deals."""
        if self.weight_sum <= 0 or len(self.deals) < 2:
            return False
        total = self.weight_sum
        mean = (self.values[first] - self.values[second]) / total
        spread = sum(w * (v[first] - v[second] - mean) ** 2 for w, v in self.deals) / total
        squares = sum(w * w for w, _ in self.deals) / (total * total)
        return mean < z * math.sqrt(spread * squares)

    def estimates(self, moves: list[Play]) -> list[MoveEstimate]:
        """The per-move averages as ``MoveEstimate``s, in ``moves`` order."""
        scale = 1.0 / self.weight_sum if self.weight_sum > 0 else 0.0
        return [
            MoveEstimate(
                move,
                self.values[i] * scale,
                self.wins[i] * scale,
                self.points[i] * scale,
                self.count,
            )
            for i, move in enumerate(moves)
        ]


def resample(
    candidates: list, weights: list[float], count: int, rng: random.Random
) -> list[tuple[object, float]]:
    """``count`` systematic draws from ``candidates`` in proportion to ``weights``
    (normalised), a candidate drawn ``k`` times kept once with weight ``k / count``;
    in candidate order."""
    step = 1.0 / count
    point = rng.random() * step
    cumulative = 0.0
    drawn = [0] * len(candidates)
    made = 0
    for index, weight in enumerate(weights):
        cumulative += weight
        while point < cumulative and made < count:
            drawn[index] += 1
            made += 1
            point += step
    return [(candidates[i], k * step) for i, k in enumerate(drawn) if k]


@dataclass(frozen=True)
class MoveEstimate:
    """Quelonia's estimate of one legal move, averaged over her weighted sampled deals.

    ``match_value``: her side's chance of winning the match (0-1) after the hand;
    ``hand_win_chance``: the chance her side wins the hand (0-1; a hand nobody scores
    counts as not won); ``expected_points``: the points her side takes from the hand,
    positive when it wins, negative when another side does (R20-R25); ``deals``: how many
    sampled deals it rests on (0: no simulation ran, every figure is 0).
    """

    move: Play
    match_value: float
    hand_win_chance: float
    expected_points: float
    deals: int
