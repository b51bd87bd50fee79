"""Abuela Quelonia's match model (``dominoes.bots.match_value``): the value of a hand's
outcome as her side's chance of winning the match (R25), at two sides and at three seats."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from dominoes.bots import match_value
from dominoes.bots.match_value import MatchModel, three_way_table, win_table


def model(
    seats: int, scores: tuple[int, ...], target: int = 100, seat: int = 0, rules: str = "classic"
) -> MatchModel:
    """A ``MatchModel`` for a viewer at ``seat`` with these scores (points, one a seat): the
    model reads only these five fields of the ``SeatView``."""
    view = SimpleNamespace(rules=rules, seats=seats, seat=seat, target=target, scores=scores)
    return MatchModel(view, partnerships=seats == 4)


def test_three_way_table_is_fair_and_symmetric():
    table = three_way_table(50, 13.0)
    for need in (1, 7, 25, 50):
        assert table[need][need][need] == pytest.approx(1 / 3)
    assert table[10][20][35] == pytest.approx(table[10][35][20])


def test_three_way_table_is_monotone_in_every_need():
    table = three_way_table(30, 13.0)
    for need in range(1, 30):
        assert table[need][15][20] > table[need + 1][15][20]  # nearer the target: better
        assert table[15][need][20] < table[15][need + 1][20]  # a rival nearer: worse
        assert table[15][20][need] < table[15][20][need + 1]


def test_the_three_chances_add_up_to_one():
    """Each hand has one winner, so one of the three wins the match: the three players'
    chances, each read from its own seat, sum to 1."""
    table = three_way_table(40, 13.0)
    for a, b, c in ((1, 40, 40), (12, 5, 33), (40, 39, 2), (20, 20, 21)):
        assert table[a][b][c] + table[b][a][c] + table[c][a][b] == pytest.approx(1.0)


def test_at_three_seats_points_to_the_trailing_rival_cost_her():
    """R25 at three seats: each rival can win the match, not only the leader. With bob at
    60 and carol at 0, a hand carol takes for 30 lowers her chance; the model before
    session 15 read only the leading rival and valued it as a hand nobody scored."""
    three = model(3, (0, 60, 0))
    nobody = three.value((), 0)
    assert three.value((2,), 30) < nobody
    assert three.value((1,), 30) < three.value((2,), 30)  # the leader's points cost more
    assert three.value((0,), 30) > nobody


@pytest.mark.parametrize("seats, scores", [(2, (30, 64)), (4, (30, 64, 30, 64))])
def test_two_sides_read_the_two_sided_table(seats, scores):
    two = model(seats, scores)
    table = win_table(50, 0.5, match_value.HAND_POINTS[seats] / match_value.UNIT)
    assert two.value((0,), 10) == table[30][18]  # 60 and 36 points short: 30 and 18 units
    assert two.value((1,), 36) == 0.0
    assert two.value((0,), 70) == 1.0


def test_each_profile_has_its_own_hand_size():
    """``cuban`` (double-nine, ten tiles a seat) scores about twice classic's points a hand
    (``python -m research.hand_points``): its model races with its own mean, not classic's 18."""
    cuban = model(4, (30, 64, 30, 64), rules="cuban")
    assert MatchModel.mean_points("cuban", 4) == 35.8
    assert cuban.value((0,), 10) == win_table(50, 0.5, 35.8 / 2)[30][18]
    assert cuban.value((0,), 10) != model(4, (30, 64, 30, 64)).value((0,), 10)
    assert MatchModel.mean_points("classic", 3) == 26.0
    assert MatchModel.mean_points("first_double", 4) == 18.0  # one hand: any mean will do
