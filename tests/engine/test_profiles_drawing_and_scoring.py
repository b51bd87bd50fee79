"""The rule profiles (docs/profiles.md) in the hand's middle and end: optional drawing and
passing (first_double), who scores the partners' tiles, two-player closing, blocked
points by differences, capicúa and zapato."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from dominoes import (
    Draw,
    IllegalMove,
    Pass,
    Play,
    advance,
    apply,
    forced_action,
    legal_moves,
    match_to_dict,
    match_to_record,
    new_match,
    parse_tile,
    replay_text,
    start_hand,
    view_for,
)
from dominoes.engine import optional_actions
from dominoes.rules import CLASSIC, PROFILES
from dominoes.state import MatchOutcome
from tests.support.profiles import SEED, dealt_as, empty, finish_first_hand, play, tiles

# --- optional drawing (first_double) ------------------------------------------------------


def test_first_double_drawing_and_passing_are_the_seats_choice():
    rules = PROFILES["first_double"]
    match = dealt_as(rules, ["6-6 5-4 4-3 3-2 2-1 1-0 5-0", "6-5 5-5 4-4 3-1 2-0 4-1 3-0"], "6-4")
    match = play(match, 0, "6-6")
    # seat 1 holds 6-5: it must play
    assert optional_actions(match) == [] and legal_moves(match) == [Play(1, parse_tile("6-5"), 6)]
    match = play(match, 1, "6-5", 6)
    # seat 0: 5-4 and 5-0 fit; play 5-4 -> ends (6, 4)
    match = play(match, 0, "5-4", 5)
    assert match.hand.ends == (6, 4)
    # seat 1 holds 4-4 and 4-1: plays 4-4 -> ends stay (6, 4)
    match = play(match, 1, "4-4", 4)
    # seat 0: 4-3 fits
    match = play(match, 0, "4-3", 4)
    assert match.hand.ends == (6, 3)
    # seat 1: 3-1 and 3-0 fit -> plays 3-1 -> ends (6, 1)
    match = play(match, 1, "3-1", 3)
    # seat 0: 2-1, 1-0 fit -> plays 1-0 -> ends (6, 0)
    match = play(match, 0, "1-0", 1)
    # seat 1: 2-0, 3-0 fit -> plays 2-0 -> ends (6, 2)
    match = play(match, 1, "2-0", 0)
    # seat 0: 3-2, 2-1 fit -> plays 3-2 -> ends (6, 3)
    match = play(match, 0, "3-2", 2)
    # seat 1: 3-0 fits -> ends (6, 0)
    match = play(match, 1, "3-0", 3)
    # seat 0 holds 2-1 and 5-0: 5-0 fits the 0 end; play 5-0 -> ends (6, 5)
    match = play(match, 0, "5-0", 0)
    # seat 1 holds 5-5, 4-1: 5-5 fits
    match = play(match, 1, "5-5", 5)
    # seat 0 holds 2-1 only, ends (6, 5): no fit, stock not empty: a choice
    assert legal_moves(match) == [] and forced_action(match) is None
    top = match.hand.stock[match.hand.drawn]
    assert top == parse_tile("6-4")
    assert optional_actions(match) == [Draw(0, top), Pass(0)]
    view = view_for(match, 0)
    assert view.choices == ("draw", "pass") and view.to_dict()["choices"] == ["draw", "pass"]
    assert view_for(match, 1).to_dict()["choices"] == []
    assert advance(match) is match  # nothing automatic
    passed = apply(match, Pass(0))  # allowed with tiles in the stock (no must_draw)
    assert passed.hand.turn == 1 and passed.hand.stock_left == match.hand.stock_left
    drew = apply(match, Draw(0, top))
    assert legal_moves(drew) == [Play(0, top, 6)]  # the drawn 6-4 fits: it must be played
    with pytest.raises(IllegalMove) as refused:
        apply(drew, Pass(0))
    assert refused.value.code == "cannot_pass_with_play"
    with pytest.raises(IllegalMove) as refused:
        apply(play(drew, 0, "6-4", 6), Draw(1, drew.hand.stock[drew.hand.drawn]))
    assert refused.value.code == "cannot_draw_with_play"  # seat 1's 4-1 fits the 4 end


def test_first_double_a_round_of_passes_blocks_and_one_hand_ends_the_match():
    rules = PROFILES["first_double"]
    match = dealt_as(rules, ["6-6 1-0 2-0 3-0 4-0 5-0 0-0", "5-5 1-1 2-1 3-1 4-1 5-1 2-2"], "3-3")
    match = play(match, 0, "6-6")
    assert optional_actions(match) == [Draw(1, parse_tile("3-3")), Pass(1)]
    match = apply(match, Pass(1))
    match = apply(match, Pass(0))
    assert match.hand.is_over and match.hand.result.end == "blocked"
    # counts: seat 0 = 1+2+3+4+5+0 = 15, seat 1 = 10+2+3+4+5+6+4 = 34: seat 0 scores 34
    assert match.hand.result.counts == (15, 34)
    assert (match.hand.result.winners, match.hand.result.points) == ((0,), 34)
    assert match.is_over and match.winners == (0,) and match.outcome is MatchOutcome.TARGET
    with pytest.raises(IllegalMove) as refused:
        start_hand(match)
    assert refused.value.code == "hand_over"


def test_first_double_four_seats_play_alone():
    rules = PROFILES["first_double"]
    assert not rules.partnerships(4)
    match = new_match(4, 1, seed=SEED, rules=rules)
    match = finish_first_hand(match)
    assert match.is_over and len(match.winners) <= 1


# --- scoring -----------------------------------------------------------------------------


def _domino_match(name: str, seed_index: int = 0):
    rules = PROFILES[name]
    for n in range(seed_index, seed_index + 200):
        match = finish_first_hand(new_match(4, rules.targets[0], seed=bytes([n]) * 32, rules=rules))
        if match.hand.result.end == "domino":
            return match
    raise AssertionError("no domino found")


@pytest.mark.parametrize(
    ("name", "partner_counts"),
    [("international", True), ("spain_pairs", True), ("venezuelan", False), ("cuban", False)],
)
def test_who_scores_the_partners_tiles_on_a_domino(name, partner_counts):
    match = _domino_match(name)
    result = match.hand.result
    rivals = sum(c for s, c in enumerate(result.counts) if s not in result.winners)
    multiplier = 2 if result.capicua else 1
    expected = sum(result.counts) if partner_counts else rivals
    assert result.points == expected * multiplier


def test_two_player_closing_gives_the_stock_to_the_rival_and_scores_the_difference():
    """tests/cases/two_player/closed_with_stock_left: seat 0 plays 4-4 on the 4 end, the
    ends read (4, 4) and all seven fours are down, while 5-2 and 3-1 are still in the
    stock. The hand is closed at once; seat 1 (the closer's rival) takes 5-2 and 3-1:
    seat 0 holds 2-2 (4), seat 1 5-5 5-1 3-2 1-1 + 5-2 3-1 (10+6+5+2+7+4 = 34)."""
    from dominoes.record import load_record, replay_match

    text = open("tests/cases/two_player/closed_with_stock_left.json", encoding="utf-8").read()
    match, answer = replay_match(load_record(json.loads(text)))
    hand = match.hand
    assert hand.ends == (4, 4) and hand.actions[-1] == Play(0, parse_tile("4-4"), 4)
    assert hand.stock_left == 0 and len(hand.stock) - 2 == sum(
        isinstance(a, Draw) for a in hand.actions
    )
    assert set(tiles("5-2 3-1")) <= set(hand.holdings[1])
    assert hand.result.counts == (4, 34)
    assert (hand.result.winners, hand.result.points) == ((0,), 30)
    classic = replace(match, rules=CLASSIC)  # classic would have drawn on, not closed
    assert classic.rules.stock_on_block is None


def test_two_player_equal_counts_on_a_block_score_nothing():
    from dominoes.scoring import score_blocked

    rules = PROFILES["two_player"]
    result = score_blocked(rules, [tiles("6-1 3-3"), tiles("5-5 3-0")])
    assert (result.winners, result.points) == ((), 0)


@pytest.mark.parametrize(
    ("name", "holdings", "winners", "points"),
    [
        ("three_player", ["6-1", "5-5", "2-1"], (2,), (7 - 3) + (10 - 3)),
        ("classic", ["6-1", "5-5", "2-1"], (2,), 7 + 10),
        ("two_player", ["6-1 3-3", "5-5"], (1,), 13 - 10),
    ],
)
def test_blocked_points_by_differences(name, holdings, winners, points):
    from dominoes.scoring import score_blocked

    result = score_blocked(PROFILES[name], [tiles(h) for h in holdings])
    assert (result.winners, result.points) == (winners, points)


@pytest.mark.parametrize(
    ("name", "winners", "points"),
    [("spain_pairs", (1, 3), 18), ("international", (), 0), ("venezuelan", (), 0)],
)
def test_a_tied_block_between_pairs(name, winners, points):
    """Teams 5+4 = 9 and 5+4 = 9, seat 3 led: the Spanish pair that led wins it all."""
    from dominoes.scoring import score_blocked

    holdings = [tiles("3-2"), tiles("4-1"), tiles("2-2"), tiles("3-1")]
    result = score_blocked(PROFILES[name], holdings, leader=3)
    assert (result.winners, result.points) == (winners, points)


def test_cuban_capicua_doubles_the_points_only_for_a_non_double_on_two_different_ends():
    from dominoes.scoring import score_domino

    rules = PROFILES["cuban"]
    holdings = [(), tiles("9-9", 9), tiles("1-0", 9), tiles("2-2", 9)]
    plain = score_domino(rules, holdings, 0)
    double = score_domino(rules, holdings, 0, capicua=True)
    assert (plain.points, plain.capicua) == (18 + 4, False)
    assert (double.points, double.capicua) == (2 * (18 + 4), True)
    assert score_domino(PROFILES["venezuelan"], holdings, 0, capicua=True).points == 22
    # end to end: the last tile 8-7 on ends (8, 7) is a capicúa; 8-8 on (8, 8) is not
    path = "tests/cases/cuban/capicua_scores_double.json"
    status, answer = replay_text(open(path, encoding="utf-8").read())
    assert status == 0 and answer["hands"][0]["capicua"] is True


def test_zapato_marks_a_match_the_losers_lost_without_a_point():
    from dominoes.scoring import is_zapato

    rules = PROFILES["international"]
    over = replace(
        empty(rules, 4),
        scores=(200, 0, 200, 0),
        winners=(0, 2),
        outcome=MatchOutcome.TARGET,
        hands=new_match(4, 200, seed=SEED, rules=rules).hands,
    )
    assert is_zapato(over) is True
    assert is_zapato(replace(over, scores=(200, 5, 200, 5))) is False
    assert is_zapato(replace(over, winners=None, outcome=None)) is None
    assert is_zapato(replace(over, rules=CLASSIC)) is None
    assert view_for(over, 1).to_dict()["zapato"] is True
    assert "zapato" not in view_for(replace(over, rules=CLASSIC), 1).to_dict()


def test_classic_answers_and_views_have_no_profile_keys():
    match = new_match(4, 100, seed=SEED)
    view = view_for(match, match.hand.turn).to_dict()
    assert not {"choices", "lead_seats", "zapato"} & set(view)
    status, answer = replay_text(json.dumps(match_to_record(match)))
    assert set(answer) == {"ok", "hands", "scores", "winner"}
    assert "lead_seats" not in match_to_dict(match)["hands"][0]
