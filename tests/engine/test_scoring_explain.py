"""``dominoes.scoring.explain``: which rule decided a hand, its counts and tie-break steps,
computed once by the engine and sent to the pages (``last_hand.explanation``)."""

from __future__ import annotations

import pytest

from dominoes import load_record, replay_match, view_for
from dominoes.rules import CLASSIC, PROFILES
from dominoes.scoring import explain, score_blocked, score_domino
from dominoes.tiles import parse_tile
from tests.support.engine import case


def replayed(name: str):
    """The match a profile case record replays to."""
    match, answer = replay_match(load_record(case(name)))
    assert answer["ok"], answer
    return match


def holdings(*hands: str, max_pip: int = 6):
    return [[parse_tile(name, max_pip) for name in hand.split()] for hand in hands]


def test_a_domino_names_the_rivals_counts():
    hands = holdings("5-3 2-2", "", "6-1", "6-6 4-0")
    why = explain(CLASSIC, hands, score_domino(CLASSIC, hands, 1))
    assert why == {
        "end": "domino",
        "counts": [12, 0, 7, 16],
        "winners": [1, 3],
        "points": 19,
        "scored_seats": [0, 2],
        "addends": [12, 7],
        "scored": "rivals",
        "went_out": 1,
        "uncounted_partner": 3,
        "team_counts": [19, 16],
        "rule": "R20",
        "rules": ["R17", "R19", "R20"],
        "decided_by": "domino",
    }


def test_a_block_alone_goes_to_the_lowest_count():
    hands = holdings("5-4 1-0", "6-3 3-3 6-1")
    why = explain(CLASSIC, hands, score_blocked(CLASSIC, hands))
    assert (why["rule"], why["decided_by"], why["lowest"]) == ("R21", "lowest_count", 10)
    assert (why["winners"], why["points"], why["scored_seats"]) == ([0], 22, [1])
    assert "tied" not in why and "tie_break" not in why


@pytest.mark.parametrize(
    ("hands", "decided", "winners"),
    [
        (("3-1 2-0", "3-3 0-0", "6-5 5-2"), "lowest_tiles", [1]),
        (("4-0 2-1", "3-1 3-0"), "nobody", []),
    ],
)
def test_a_tie_for_the_lowest_count_shows_the_tile_values_compared(hands, decided, winners):
    tiles = holdings(*hands)
    why = explain(CLASSIC, tiles, score_blocked(CLASSIC, tiles))
    assert (why["rule"], why["decided_by"], why["winners"]) == ("R23", decided, winners)
    assert [step["seat"] for step in why["tie_break"]] == why["tied"]
    for step in why["tie_break"]:
        assert step["values"] == sorted(t.high + t.low for t in tiles[step["seat"]])


@pytest.mark.parametrize(
    ("name", "decided", "winners", "points"),
    [
        ("tranque_lowest_player_wins_for_pair", "lowest_player", [1, 3], 20),
        ("tranque_lowest_shared_by_both_pairs", "pair_that_led", [0, 2], 10),
        ("tranque_equal_pairs_clear_lowest", "lowest_player", [0, 2], 9),
    ],
)
def test_a_cuban_tranque_says_why_that_pair_won(name, decided, winners, points):
    match = replayed(f"cuban/{name}")
    summary = view_for(match, 0).to_dict()["last_hand"]
    why = summary["explanation"]
    assert (why["rule"], why["decided_by"], why["winners"], why["points"]) == (
        "R22",
        decided,
        winners,
        points,
    )
    assert why["counts"] == summary["counts"] and why["lowest"] == min(why["counts"])
    rivals = [seat for seat in range(4) if seat not in winners]
    assert why["scored_seats"] == rivals


def test_pairs_with_lower_total_and_a_tie():
    hands = holdings("6-2", "5-5 6-4", "1-0 2-2", "6-5 4-1")
    why = explain(CLASSIC, hands, score_blocked(CLASSIC, hands))
    assert (why["decided_by"], why["team_counts"], why["points"]) == (
        "lower_pair_total",
        [13, 36],
        36,
    )
    tied = holdings("6-4 3-0", "6-6", "4-4 2-1", "4-3 3-2")
    assert explain(CLASSIC, tied, score_blocked(CLASSIC, tied))["decided_by"] == "nobody"
    spain = PROFILES["spain_pairs"]
    why = explain(spain, tied, score_blocked(spain, tied, leader=1), leader=1)
    assert (why["decided_by"], why["winners"], why["scored_seats"]) == (
        "pair_that_led",
        [1, 3],
        [0, 1, 2, 3],
    )


def test_differences_leavers_and_capicua_are_said():
    three = PROFILES["three_player"]
    hands = holdings("5-4 1-0", "6-3 3-3 6-1", "2-1")
    why = explain(three, hands, score_blocked(three, hands))
    assert why["differences"] is True and why["winners"] == [2]
    first_double = PROFILES["first_double"]
    left = explain(first_double, hands, score_blocked(first_double, hands, out=(2,)), out=(2,))
    assert (left["out"], left["winners"], left["lowest"], left["scored_seats"]) == (
        [2],
        [0],
        10,
        [1],
    )
    match = replayed("cuban/capicua_scores_double")
    why = view_for(match, 0).to_dict()["last_hand"]["explanation"]
    assert (why["multiplier"], why["points"]) == (2, 84)
    assert sum(why["counts"][seat] for seat in why["scored_seats"]) * 2 == 84
