"""The value of a hand's outcome for Abuela Quelonia: her side's chance of winning the match.

A coarse model of the rest of the match (R25): each hand is won by one side, each side
alike, for a geometric number of points with the table size's mean; a side wins the match
when its score reaches the target. Two sides (two seats, or partnerships) race on a 2-D
table (``win_table``); three seats on their own race on a 3-D one (``three_way_table``),
where every rival's score counts, not only the leader's.
"""

from __future__ import annotations

import math
from functools import cache

from dominoes.rules import PROFILES
from dominoes.view import SeatView

#: ``V[a][b][c]``, see ``three_way_table``.
Table3 = tuple[tuple[tuple[float, ...], ...], ...]

#: Mean points of a scored hand at ``classic``, by table size (Quelonia against Nino).
HAND_POINTS = {2: 19.0, 3: 26.0, 4: 18.0}
#: The other profiles' means, ``(profile, seats) -> points``: classic's above times the
#: profile's mean over classic's with Nino in every seat (``python -m research.hand_points
#: --groups 60 --seed HP``). Single-hand profiles need none: any win wins.
PROFILE_HAND_POINTS = {
    ("cuban", 4): 35.8,
    ("international", 4): 28.0,
    ("seven_plus_seven", 4): 27.3,
    ("spain_pairs", 4): 28.3,
    ("venezuelan", 4): 18.0,
    ("three_player", 3): 11.3,
    ("two_player", 2): 17.7,
}
#: Points per unit in the match-win tables.
UNIT = 2


@cache
def win_table(target_units: int, q: float, mean_units: float) -> tuple[tuple[float, ...], ...]:
    """``V[a][b]``: the chance that a side needing ``a`` units beats one needing ``b`` when
    each hand is won by the first with probability ``q`` and is worth a geometric number
    of units with the given mean (a coarse model of the match, R25)."""
    size = target_units + 1
    p = 1.0 / max(mean_units, 1.0)
    dist = [0.0] + [p * (1 - p) ** (x - 1) for x in range(1, size)]
    tail = [0.0] * (size + 1)  # tail[x] = P(points >= x)
    for x in range(size - 1, 0, -1):
        tail[x] = tail[x + 1] + dist[x]
    tail[size - 1] += 1.0 - sum(dist)  # fold the remainder into the top
    value = [[0.0] * size for _ in range(size)]
    for total in range(2, 2 * size - 1):
        for a in range(max(1, total - size + 1), min(size, total)):
            b = total - a
            if b < 1 or b >= size:
                continue
            win = tail[a]  # we reach the target
            for x in range(1, a):
                win += dist[x] * value[a - x][b]
            lose = 0.0
            for x in range(1, b):
                lose += dist[x] * value[a][b - x]
            value[a][b] = q * win + (1 - q) * lose
    return tuple(tuple(row) for row in value)


@cache
def three_way_table(target_units: int, mean_units: float) -> Table3:
    """``V[a][b][c]``: the chance that the player needing ``a`` units wins a three-seat
    match (R25) against rivals needing ``b`` and ``c`` (1 to ``target_units`` each), when
    each hand is won by each of the three alike and is worth a geometric number of units
    with mean ``mean_units``. Exact for that model: the geometric's lack of memory lets
    each sum over a hand's points run as a recurrence, ``target_units ** 3`` steps in all
    (about 0.3 s at 50 units, once per process)."""
    size = target_units + 1
    p = 1.0 / max(mean_units, 1.0)
    stay = 1.0 - p
    third = 1.0 / 3.0
    shape = range(size)
    value = [[[0.0] * size for _ in shape] for _ in shape]
    # below_*[a][b][c]: sum over x >= 1 of P(points = x) * V with that need lowered by x
    # (0 where the need reaches 0: the match is over, for us a win counted by the tail).
    below_a = [[[0.0] * size for _ in shape] for _ in shape]
    below_b = [[[0.0] * size for _ in shape] for _ in shape]
    below_c = [[[0.0] * size for _ in shape] for _ in shape]
    for total in range(3, 3 * target_units + 1):
        for a in range(max(1, total - 2 * target_units), min(target_units, total - 2) + 1):
            for b in range(max(1, total - a - target_units), min(target_units, total - a - 1) + 1):
                c = total - a - b
                if a > 1:
                    below_a[a][b][c] = p * value[a - 1][b][c] + stay * below_a[a - 1][b][c]
                if b > 1:
                    below_b[a][b][c] = p * value[a][b - 1][c] + stay * below_b[a][b - 1][c]
                if c > 1:
                    below_c[a][b][c] = p * value[a][b][c - 1] + stay * below_c[a][b][c - 1]
                win = stay ** (a - 1) + below_a[a][b][c]  # P(points >= a) reaches the target
                value[a][b][c] = third * (win + below_b[a][b][c] + below_c[a][b][c])
    return tuple(tuple(tuple(row) for row in plane) for plane in value)


class MatchModel:
    """The value of a hand's outcome for the viewer's side: its chance of winning the match.

    ``view``: the viewer's ``SeatView`` (rules, seats, seat, target and scores in points);
    ``partnerships``: whether seats 0/2 and 1/3 play together (R2)."""

    def __init__(self, view: SeatView, partnerships: bool) -> None:
        self.seats = view.seats
        self.me = view.seat
        self.partnerships = partnerships
        self.target = view.target
        self.scores = view.scores
        team_of = PROFILES[view.rules].team_of
        self.sides = tuple(
            team_of(seat, view.seats) if partnerships else seat for seat in range(view.seats)
        )
        sides = 2 if partnerships or view.seats == 2 else view.seats
        self.units = math.ceil(view.target / UNIT)
        mean = self.mean_points(view.rules, view.seats) / UNIT
        self.three_way = sides == 3
        if self.three_way:
            self.table3 = three_way_table(self.units, mean)
        else:
            self.table = win_table(self.units, 1.0 / sides, mean)

    @staticmethod
    def mean_points(profile: str, seats: int) -> float:
        """The mean points of a scored hand the model assumes at ``profile`` (a
        ``dominoes.rules.PROFILES`` name) with ``seats`` seats (``PROFILE_HAND_POINTS``,
        else classic's ``HAND_POINTS``)."""
        return PROFILE_HAND_POINTS.get((profile, seats), HAND_POINTS.get(seats, 25.0))

    def _side(self, seat: int) -> int:
        return self.sides[seat]

    def hand_points(self, winners: tuple[int, ...], points: int) -> float:
        """The points the viewer's side takes from a hand that ``winners`` won for
        ``points``: ``points`` when its side is among the winners, ``-points`` when another
        side won, 0 when nobody scored (R20-R25)."""
        if not winners:
            return 0.0
        me = self._side(self.me)
        return float(points) if any(self._side(s) == me for s in winners) else -float(points)

    def _need(self, score: int) -> int:
        return math.ceil((self.target - score) / UNIT)

    def value(self, winners: tuple[int, ...], points: int) -> float:
        """The viewer's side's chance of winning the match (0-1) after a hand that
        ``winners`` (seats) won for ``points`` (no winners: nobody scored)."""
        scores = list(self.scores)
        for seat in winners:
            scores[seat] += points
        me = self._side(self.me)
        mine = scores[self.me]
        rivals = [scores[s] for s in range(self.seats) if self._side(s) != me]
        if mine >= self.target:
            return 1.0
        if max(rivals) >= self.target:
            return 0.0
        if self.three_way:
            first, second = (min(self._need(score), self.units) for score in rivals)
            return self.table3[self._need(mine)][first][second]
        return self.table[self._need(mine)][self._need(max(rivals))]
