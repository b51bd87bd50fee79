"""RULES.md R11-R18 through the engine: placing tiles on the line, drawing, passing, the hand's end.

Positions as in ``test_rules_deal_and_lead.py``: explicit deals and replay cases from
``tests.support.engine``, through the public API only."""

from __future__ import annotations

import pytest

from dominoes import (
    Draw,
    HandEnd,
    IllegalMove,
    Pass,
    Play,
    advance,
    apply,
    forced_action,
    legal_moves,
    play_turn,
)
from tests.support.engine import (
    BLOCK_PLAYS,
    BLOCK_TIED,
    T,
    case,
    case_match,
    line_tiles,
    play,
    play_block,
    table,
    tiles,
)

#: Seat 0 leads 6-6; then 1:6-5@6, 0:5-3@5, 1:3-3@3 leaves ends (6, 3) with seat 0 holding
#: 6-3, which fits both.
PLACING = ["6-6 6-3 5-3 2-1 1-0 4-4 3-0", "6-5 6-1 5-1 4-2 3-3 2-0 5-4"]


def placed(upto: int):
    match = table(PLACING)
    for seat, tile, end in [(0, "6-6", None), (1, "6-5", 6), (0, "5-3", 5), (1, "3-3", 3)][:upto]:
        match = play(match, seat, tile, end)
    return match


def assert_line_is_a_chain(match):
    line = match.hand.line
    assert all(left[1] == right[0] for left, right in zip(line, line[1:], strict=False))
    assert match.hand.ends == (line[0][0], line[-1][1])


def test_r11_the_first_tile_s_pips_are_the_two_ends():
    match = placed(1)
    assert match.hand.ends == (6, 6)
    assert match.hand.line == ((6, 6),)


def test_r11_a_placed_tile_s_other_pip_becomes_the_new_end():
    match = placed(2)
    assert match.hand.ends == (6, 5)
    match = placed(3)
    assert match.hand.ends == (6, 3)
    assert_line_is_a_chain(match)
    assert T("5-3") not in match.hand.holdings[0]
    assert line_tiles(match) == list(tiles("6-6 6-5 5-3"))


def test_r11_only_tiles_sharing_a_pip_with_an_end_are_legal():
    match = placed(2)
    assert {(str(m.tile), m.end) for m in legal_moves(match)} == {("6-3", 6), ("5-3", 5)}


def test_r12_a_tile_fitting_both_different_ends_is_two_moves():
    match = placed(4)
    assert match.hand.ends == (6, 3)
    moves = [m for m in legal_moves(match) if m.tile == T("6-3")]
    assert sorted(m.end for m in moves) == [3, 6]
    on_left = apply(match, Play(0, T("6-3"), 6))
    on_right = apply(match, Play(0, T("6-3"), 3))
    assert on_left.hand.ends == (3, 3)
    assert on_right.hand.ends == (6, 6)
    assert_line_is_a_chain(on_left)
    assert_line_is_a_chain(on_right)


def test_r12_when_both_ends_show_the_same_pip_both_choices_are_one_move():
    match = placed(1)
    assert match.hand.ends == (6, 6)
    assert sorted((str(m.tile), m.end) for m in legal_moves(match)) == [("6-1", 6), ("6-5", 6)]
    with_end = apply(match, Play(1, T("6-5"), 6))
    without_end = apply(match, Play(1, T("6-5")))
    assert with_end.hand.ends == without_end.hand.ends == (6, 5)


def test_r13_a_double_keeps_its_end_and_the_line_has_two_ends():
    match = placed(4)
    assert match.hand.line[-1] == (3, 3)
    assert match.hand.ends == (6, 3)
    assert len(match.hand.ends) == 2
    assert_line_is_a_chain(match)


def test_r13_no_spinner_a_double_opens_no_side_branch():
    """After 6-6 and 6-5, a 6 tile fits only the one remaining 6 end."""
    match = placed(2)
    assert [m.end for m in legal_moves(match) if m.tile == T("6-3")] == [6]


# --- R14-R16 drawing and passing ----------------------------------------------------------


def test_r14_a_seat_without_a_fit_draws_the_top_of_the_stock_until_one_fits():
    """draw_until_fits: after 2-0@0 the ends are (2, 2) and seat 1 draws 6-3, 4-0, 5-3,
    6-6 and then 4-2, which fits."""
    match = case_match("draw_until_fits", upto=6)
    assert match.hand.ends == (2, 2)
    drawn = []
    while (owed := forced_action(match)) is not None:
        assert owed == Draw(1, match.hand.stock[match.hand.drawn])
        assert legal_moves(match) == []
        drawn.append(str(owed.tile))
        match = apply(match, owed)
        assert match.hand.turn == 1
    assert drawn == ["6-3", "4-0", "5-3", "6-6", "4-2"]
    assert legal_moves(match) == [Play(1, T("4-2"), 2)]
    assert match.hand.stock_left == 14 - 1 - 5


def test_r15_a_seat_without_a_fit_passes_when_the_stock_is_empty():
    """4 seats: no stock; partners_domino action 12 is seat 0's pass."""
    match = case_match("partners_domino_partner_not_counted", upto=12)
    assert match.hand.turn == 0
    assert legal_moves(match) == []
    assert forced_action(match) == Pass(0)
    passed = apply(match, Pass(0))
    assert passed.hand.turn == 1
    assert passed.hand.holdings == match.hand.holdings


def test_r16_advance_plays_the_automatic_draws_and_records_them():
    match = case_match("draw_until_fits", upto=6)
    advanced = advance(match)
    assert advanced == case_match("draw_until_fits", upto=11)
    assert [type(a) for a in advanced.hand.actions[6:]] == [Draw] * 5


def test_r16_advance_returns_the_same_state_when_nothing_is_owed():
    match = placed(2)
    assert advance(match) is match


def test_r16_play_turn_is_the_play_then_the_automatic_actions():
    match = case_match("draw_until_fits", upto=5)
    played = play_turn(match, Play(0, T("2-0"), 0))
    assert played == case_match("draw_until_fits", upto=11)
    assert played == advance(apply(match, Play(0, T("2-0"), 0)))


def test_r16_advance_passes_for_seats_without_a_fit_with_an_empty_stock():
    match = case_match("partners_domino_partner_not_counted", upto=12)
    assert advance(match) == case_match("partners_domino_partner_not_counted", upto=13)


# --- R17, R18 the end of a hand -----------------------------------------------------------


def test_r17_playing_the_last_tile_ends_the_hand_at_once():
    before = case_match("fits_both_ends_with_end", upto=12)
    assert not before.hand.is_over
    match = case_match("fits_both_ends_with_end")
    assert match.hand.is_over
    assert match.hand.holdings[1] == ()
    assert match.hand.result.end is HandEnd.DOMINO
    assert match.hand.result.winners == (1,)
    assert legal_moves(match) == [] and forced_action(match) is None
    with pytest.raises(IllegalMove) as refused:
        apply(match, Play(0, match.hand.holdings[0][0], None))
    assert (refused.value.code, refused.value.rule) == ("hand_over", "R17")


def test_r18_four_seats_block_when_nobody_holds_a_fitting_tile():
    almost = play_block(BLOCK_TIED, upto=len(BLOCK_PLAYS) - 1)
    assert not almost.hand.is_over
    match = play_block(BLOCK_TIED)
    assert match.hand.ends == (6, 6)
    assert match.hand.result.end is HandEnd.BLOCKED
    assert len(match.hand.actions) == len(BLOCK_PLAYS)  # no passes played out
    assert forced_action(match) is None and legal_moves(match) == []


def test_r18_a_last_draw_that_empties_the_stock_without_a_fit_blocks_the_hand():
    """blocked_three_seats_last_draw: seat 0 draws the whole stock; the hand ends on the
    last draw and seat 0 keeps every drawn tile."""
    record = case("blocked_three_seats_last_draw")
    stock = tiles(" ".join(record["hands"][0]["stock"]))
    before = case_match("blocked_three_seats_last_draw", upto=20)
    assert not before.hand.is_over and before.hand.stock_left == 1
    match = case_match("blocked_three_seats_last_draw")
    assert match.hand.stock_left == 0
    assert match.hand.result.end is HandEnd.BLOCKED
    assert isinstance(match.hand.actions[-1], Draw)
    assert set(stock) <= set(match.hand.holdings[0])
    assert match.hand.result.counts == (49, 19, 12)


def test_r18_a_stock_left_means_no_block():
    """With tiles in the stock a seat without a fit draws instead: the hand goes on."""
    match = case_match("draw_until_fits", upto=6)
    assert not match.hand.is_over and match.hand.stock_left > 0
