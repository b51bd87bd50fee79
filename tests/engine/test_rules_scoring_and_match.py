"""RULES.md R19-R26 and R28 through the engine: scoring a hand, the match's target,
abandoning, idle tables.

Positions as in ``test_rules_deal_and_lead.py``: explicit deals and replay cases from
``tests.support.engine``, through the public API only."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dominoes import (
    CLASSIC,
    HandEnd,
    IllegalMove,
    MatchOutcome,
    Play,
    abandon,
    apply,
    close_idle,
    forced_action,
    legal_moves,
    new_match,
    start_hand,
)
from dominoes.scoring import score_blocked, score_domino
from tests.support.engine import (
    BLOCK_TEAM_A_LOWER,
    BLOCK_TIED,
    SEEDS,
    case,
    case_match,
    empty_match,
    play_block,
    table,
    tiles,
)

# --- R19-R23 scoring ----------------------------------------------------------------------


def test_r19_counts_are_the_values_of_the_tiles_still_held_and_the_stock_never_counts():
    match = case_match("draw_until_fits")
    hand = match.hand
    assert hand.stock_left > 0
    assert hand.result.counts == tuple(sum(t.value for t in held) for held in hand.holdings)
    assert hand.result.points == hand.result.counts[1] == 53


@pytest.mark.parametrize(
    ("holdings", "seat", "winners", "points"),
    [
        (["", "6-6 1-0"], 0, (0,), 13),
        (["5-5", "", "3-1 0-0"], 1, (1,), 14),
        (["6-1", "", "6-6", "2-0"], 1, (1, 3), 19),  # partner seat 3 is not counted
        (["", "6-4", "5-5", "1-0"], 0, (0, 2), 11),  # partner seat 2's 10 is not counted
    ],
)
def test_r20_a_domino_scores_the_rivals_counts(holdings, seat, winners, points):
    result = score_domino(CLASSIC, [tiles(h) for h in holdings], seat)
    assert result.end is HandEnd.DOMINO
    assert (result.winners, result.points) == (winners, points)


def test_r20_partner_not_counted_through_the_engine():
    result = case_match("partners_domino_partner_not_counted").hand.result
    assert result.counts == (6, 0, 2, 3)
    assert (result.winners, result.points) == ((1, 3), 8)


@pytest.mark.parametrize(
    ("holdings", "winners", "points"),
    [
        pytest.param(["6-6", "1-0 2-0"], (1,), 12, id="R21-2-seats-lowest-count"),
        pytest.param(["6-6", "5-0", "4-1 0-0"], (2,), 17, id="R21-3-seats-sum-of-all-others"),
        pytest.param(["5-0", "4-0 1-0"], (1,), 5, id="R23-lowest-tile-breaks"),
        pytest.param(["2-0 6-0", "1-1 3-0 2-1"], (1,), 8, id="R23-next-lowest-tile-breaks"),
        pytest.param(["2-0 5-0", "1-1 4-1"], (), 0, id="R23-identical-values-nobody"),
        pytest.param(["5-0", "6-6", "4-0 1-0"], (2,), 17, id="R23-3-seats-tied-one-counts"),
        pytest.param(["3-2", "4-1", "5-0"], (), 0, id="R23-3-way-identical-nobody"),
        pytest.param(["3-2", "4-1", "5-0 0-0"], (2,), 10, id="R23-0-0-is-the-lowest-tile"),
    ],
)
def test_r21_r23_blocked_alone(holdings, winners, points):
    result = score_blocked(CLASSIC, [tiles(h) for h in holdings])
    assert result.end is HandEnd.BLOCKED
    assert (result.winners, result.points) == (winners, points)
    assert result.counts == tuple(sum(t.value for t in tiles(h)) for h in holdings)


@pytest.mark.parametrize(
    ("holdings", "winners", "points"),
    [
        pytest.param(["1-0", "6-6", "0-0", "2-1"], (0, 2), 15, id="team-A-lower"),
        pytest.param(["6-5", "1-0", "2-0", "0-0"], (1, 3), 13, id="team-B-lower"),
        pytest.param(["6-0", "3-2", "1-0", "2-0"], (), 0, id="equal-teams-nobody"),
    ],
)
def test_r22_blocked_four_seats_compares_team_counts(holdings, winners, points):
    result = score_blocked(CLASSIC, [tiles(h) for h in holdings])
    assert (result.winners, result.points) == (winners, points)


def test_r22_equal_teams_score_nothing_through_the_engine():
    match = play_block(BLOCK_TIED)
    result = match.hand.result
    assert result.counts == (20, 23, 25, 22)
    assert (result.winners, result.points) == ((), 0)
    assert match.scores == (0, 0, 0, 0)


def test_r22_the_lower_team_scores_the_other_team_s_count_through_the_engine():
    match = play_block(BLOCK_TEAM_A_LOWER)
    assert match.hand.result.counts == (20, 23, 19, 28)
    assert (match.hand.result.winners, match.hand.result.points) == ((0, 2), 51)
    assert match.scores == (51, 0, 51, 0)


def test_r23_lowest_tile_breaks_a_tie_through_the_engine():
    result = case_match("blocked_tie_lowest_tile_breaks_3_seats").hand.result
    assert result.counts == (8, 8, 48)
    assert (result.winners, result.points) == ((0,), 56)  # the tied seat's 8 included


# --- R24, R25 the match -------------------------------------------------------------------


def test_r24_after_a_hand_nobody_scored_the_lead_moves_on():
    tied = play_block(BLOCK_TIED)
    assert tied.hand.result.winners == ()
    match = start_hand(tied, seed=b"next")
    assert (match.hand.leader, match.hand.required_lead, match.hand.number) == (1, None, 1)
    assert match.scores == (0, 0, 0, 0)


def _last_play_with_scores(name, scores):
    before = case_match(name, upto=len(case(name)["hands"][-1]["actions"]) - 1)
    action = case_match(name).hand.actions[-1]
    return apply(replace(before, scores=scores), action)


@pytest.mark.parametrize(("start", "over"), [(94, False), (95, True), (99, True)])
def test_r25_the_first_to_reach_or_pass_the_target_wins(start, over):
    """fits_both_ends_with_end: seat 1 dominoes for 5 points."""
    match = _last_play_with_scores("fits_both_ends_with_end", (80, start))
    assert match.scores == (80, start + 5)
    assert match.is_over is over
    if over:
        assert match.winners == (1,)
        assert match.outcome is MatchOutcome.TARGET
    else:
        assert match.winners is None and match.outcome is None


def test_r25_partners_carry_the_same_score_and_win_together():
    match = _last_play_with_scores("partners_domino_partner_not_counted", (60, 95, 60, 95))
    assert match.scores == (60, 103, 60, 103)
    assert match.winners == (1, 3)


def test_r25_targets_are_50_or_100():
    for target in (50, 100):
        assert new_match(2, target, seed=SEEDS[0]).target == target
    with pytest.raises(ValueError):
        new_match(2, 75)


def test_r25_no_hand_after_the_match_is_won():
    match = _last_play_with_scores("fits_both_ends_with_end", (0, 99))
    with pytest.raises(IllegalMove) as refused:
        start_hand(match, seed=SEEDS[0])
    assert (refused.value.code, refused.value.rule) == ("hand_over", "R25")


# --- R26, R28 ending early ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "scores", "leaver", "winners"),
    [
        pytest.param(2, (90, 10), 0, (1,), id="2-seats-leader-leaves"),
        pytest.param(2, (0, 0), 1, (0,), id="2-seats-at-the-start"),
        pytest.param(3, (10, 40, 20), 0, (1,), id="3-seats-more-points-wins"),
        pytest.param(3, (10, 40, 90), 2, (1,), id="3-seats-abandoner-led"),
        pytest.param(3, (10, 30, 30), 0, (), id="3-seats-level-nobody"),
        pytest.param(3, (0, 0, 0), 1, (), id="3-seats-all-zero-nobody"),
        pytest.param(4, (50, 20, 50, 20), 0, (1, 3), id="4-seats-team-A-leaves"),
        pytest.param(4, (0, 80, 0, 80), 3, (0, 2), id="4-seats-team-B-leaves"),
    ],
)
def test_r26_abandoning_loses_the_match(seats, scores, leaver, winners):
    match = replace(new_match(seats, 100, seed=SEEDS[1]), scores=scores)
    ended = abandon(match, leaver)
    assert ended.winners == winners
    assert leaver not in ended.winners
    assert ended.outcome is MatchOutcome.ABANDONED
    assert ended.abandoned_by == leaver
    assert ended.is_over
    assert legal_moves(ended) == [] and forced_action(ended) is None
    with pytest.raises(IllegalMove) as refused:
        apply(ended, Play(ended.hand.turn, ended.hand.holdings[ended.hand.turn][0]))
    assert refused.value.code == "hand_over"
    with pytest.raises(IllegalMove):
        abandon(ended, (leaver + 1) % seats)


def test_r26_a_seat_not_at_the_table_cannot_abandon():
    with pytest.raises(ValueError):
        abandon(new_match(2, 100, seed=SEEDS[1]), 2)


def test_r28_an_idle_table_closes_with_no_winner():
    match = close_idle(new_match(3, 50, seed=SEEDS[2]))
    assert match.winners == ()
    assert match.outcome is MatchOutcome.IDLE
    assert match.is_over
    with pytest.raises(IllegalMove) as refused:
        close_idle(match)
    assert refused.value.code == "hand_over"


def test_r28_an_idle_close_keeps_the_scores():
    match = replace(empty_match(2), scores=(30, 20))
    match = close_idle(
        table(["6-6 5-5 4-4 6-5 6-4 6-3 6-2", "6-1 6-0 5-4 5-3 5-2 5-1 5-0"], before=match)
    )
    assert match.scores == (30, 20)
    assert match.winners == ()
