"""Refusals: every code of RECORD.md's table, raised as ``IllegalMove`` by ``apply`` or
``start_hand`` with its ``code`` and ``rule``, the precedence RECORD.md gives when several
codes fit one action, and the guarantee that a refused action changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from dominoes import Draw, IllegalMove, Pass, Play, abandon, apply, start_hand
from dominoes.errors import RULE_FOR_CODE
from tests.support.engine import (
    BLOCK_TIED,
    T,
    case_match,
    deal_of,
    empty_match,
    play,
    play_block,
    snapshot,
    table,
)

#: RECORD.md's table: code -> the rules it may cite.
RECORD_CODES = {
    "bad_deal": {"R1", "R4"},
    "redeal_required": {"R5"},
    "not_your_turn": {"R3", "R7", "R8", "R9", "R10"},
    "wrong_lead": {"R7", "R8", "R9"},
    "tile_not_in_hand": {"R11"},
    "tile_does_not_fit": {"R11"},
    "end_required": {"R12"},
    "cannot_draw_with_play": {"R16"},
    "cannot_pass_with_play": {"R16"},
    "must_draw": {"R14"},
    "wrong_draw": {"R14"},
    "hand_over": {"R17", "R18", "R25"},
    "hand_in_progress": {"R17", "R18"},
}

# --- positions ---------------------------------------------------------------------------

#: 2 seats, seat 0 holds 6-6 and must lead it (R7).
OPENING = ["6-6 6-3 5-3 2-1 1-0 4-4 3-0", "6-5 6-1 5-1 4-2 3-3 2-0 5-4"]


def opening():
    return table(OPENING)


def ends_6_5():
    """Seat 0 to act on ends (6, 5) holding 6-3 and 5-3 (fits), 2-1, 1-0, 4-4, 3-0."""
    return play(play(opening(), 0, "6-6"), 1, "6-5", 6)


def ends_6_3():
    """Seat 0 to act on ends (6, 3) holding 6-3, which fits both."""
    return play(play(ends_6_5(), 0, "5-3", 5), 1, "3-3", 3)


def must_draw():
    """draw_until_fits after action 6: seat 1 holds no fit, the stock's top is 6-3."""
    return case_match("draw_until_fits", upto=6)


def must_pass():
    """partners_domino after action 12: seat 0 holds no fit, 4 seats, no stock."""
    return case_match("partners_domino_partner_not_counted", upto=12)


def with_a_fit_four_seats():
    """partners_domino after action 13: seat 1 to act with a fit and no stock."""
    return case_match("partners_domino_partner_not_counted", upto=13)


def after_domino():
    return case_match("fits_both_ends_with_end")


def after_block():
    return play_block(BLOCK_TIED)


def after_target():
    """fits_both_ends_with_end's last play with seat 1 on 99 points: the match is won."""
    before = case_match("fits_both_ends_with_end", upto=12)
    return apply(replace(before, scores=(0, 99)), after_domino().hand.actions[-1])


def abandoned():
    return abandon(ends_6_5(), 1)


# --- apply: one case per code (and per distinct way to earn it) ---------------------------

APPLY_REFUSALS = [
    ("not_your_turn", "R3", opening, Play(1, T("6-5"))),
    ("not_your_turn", "R3", ends_6_5, Play(1, T("6-1"), 6)),
    ("not_your_turn", "R3", must_draw, Draw(0, T("6-3"))),
    ("not_your_turn", "R3", must_pass, Pass(1)),
    ("wrong_lead", "R7", opening, Play(0, T("6-3"))),
    ("tile_not_in_hand", "R11", ends_6_5, Play(0, T("6-1"), 6)),
    ("tile_not_in_hand", "R11", ends_6_5, Play(0, T("6-6"), 6)),  # already on the line
    ("tile_does_not_fit", "R11", ends_6_5, Play(0, T("2-1"))),
    ("tile_does_not_fit", "R11", ends_6_5, Play(0, T("5-3"), 6)),  # fits 5, not the 6 named
    ("tile_does_not_fit", "R11", ends_6_5, Play(0, T("6-3"), 3)),  # 3 is not an end
    ("tile_does_not_fit", "R11", ends_6_5, Play(0, T("4-4"), 4)),
    ("end_required", "R12", ends_6_3, Play(0, T("6-3"))),
    ("cannot_draw_with_play", "R16", ends_6_5, Draw(0, T("6-2"))),
    ("cannot_draw_with_play", "R16", opening, Draw(0, T("6-2"))),  # the lead always fits
    ("cannot_pass_with_play", "R16", ends_6_5, Pass(0)),
    ("cannot_pass_with_play", "R16", opening, Pass(0)),
    ("cannot_pass_with_play", "R16", with_a_fit_four_seats, Pass(1)),
    ("must_draw", "R14", must_draw, Pass(1)),
    ("wrong_draw", "R14", must_draw, Draw(1, T("4-0"))),  # second in the stock, not its top
    ("wrong_draw", "R14", must_draw, Draw(1, T("6-1"))),
    ("wrong_draw", "R14", must_pass, Draw(0, T("0-0"))),  # the stock is empty
    ("hand_over", "R17", after_domino, Play(0, T("6-6"))),
    ("hand_over", "R17", after_domino, Pass(0)),
    ("hand_over", "R18", after_block, Pass(2)),
    ("hand_over", "R18", after_block, Play(2, T("3-2"), 6)),
    ("hand_over", "R25", after_target, Pass(0)),
    ("hand_over", "R25", abandoned, Play(0, T("6-3"), 6)),
]


@pytest.mark.parametrize(
    ("code", "rule", "position", "action"),
    APPLY_REFUSALS,
    ids=[f"{code}-{n}" for n, (code, *_rest) in enumerate(APPLY_REFUSALS)],
)
def test_apply_refuses_with_the_documented_code_and_rule(code, rule, position, action):
    match = position()
    before = snapshot(match)
    with pytest.raises(IllegalMove) as refused:
        apply(match, action)
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert refused.value.rule in RECORD_CODES[code]
    assert refused.value.message
    assert snapshot(match) == before


# --- precedence (RECORD.md: the first code that applies, in the table's order) --------------

PRECEDENCE = [
    pytest.param(
        after_domino, Play(1, T("0-0"), 9), "hand_over", id="hand_over-before-not_your_turn"
    ),
    pytest.param(after_block, Draw(3, T("0-0")), "hand_over", id="hand_over-before-wrong_draw"),
    pytest.param(
        opening, Play(1, T("1-1"), 6), "not_your_turn", id="not_your_turn-before-not_in_hand"
    ),
    pytest.param(opening, Play(1, T("6-5")), "not_your_turn", id="not_your_turn-before-lead"),
    pytest.param(ends_6_5, Pass(1), "not_your_turn", id="not_your_turn-before-pass_with_play"),
    pytest.param(
        ends_6_5, Draw(1, T("0-0")), "not_your_turn", id="not_your_turn-before-draw_with_play"
    ),
    pytest.param(
        opening, Play(0, T("5-5")), "tile_not_in_hand", id="tile_not_in_hand-before-wrong_lead"
    ),
    pytest.param(
        ends_6_5, Play(0, T("4-3")), "tile_not_in_hand", id="tile_not_in_hand-before-no_fit"
    ),
    pytest.param(opening, Play(0, T("6-3"), 6), "wrong_lead", id="wrong_lead-end-given-is-ignored"),
    pytest.param(
        ends_6_3, Play(0, T("6-3"), 5), "tile_does_not_fit", id="does_not_fit-before-end_required"
    ),
    pytest.param(
        ends_6_5, Draw(0, T("0-0")), "cannot_draw_with_play", id="draw_with_play-before-not_top"
    ),
    pytest.param(
        with_a_fit_four_seats,
        Draw(1, T("0-0")),
        "cannot_draw_with_play",
        id="draw_with_play-before-empty_stock",
    ),
    pytest.param(ends_6_5, Pass(0), "cannot_pass_with_play", id="pass_with_play-before-must_draw"),
]


@pytest.mark.parametrize(("position", "action", "code"), PRECEDENCE)
def test_the_first_applicable_code_is_reported(position, action, code):
    match = position()
    before = snapshot(match)
    with pytest.raises(IllegalMove) as refused:
        apply(match, action)
    assert refused.value.code == code
    assert snapshot(match) == before


def test_an_end_given_with_the_lead_is_ignored():
    """RECORD.md: an end given with the lead is ignored."""
    led = apply(opening(), Play(0, T("6-6"), 3))
    plain = apply(opening(), Play(0, T("6-6")))
    assert led.hand.ends == plain.hand.ends == (6, 6)
    assert (led.hand.line, led.hand.holdings, led.hand.turn) == (
        plain.hand.line,
        plain.hand.holdings,
        plain.hand.turn,
    )


def test_a_refused_action_leaves_even_a_deep_state_unchanged():
    match = case_match("match_to_100_3_seats", hand=4, upto=5)
    before = snapshot(match)
    seat = (match.hand.turn + 1) % 3
    for action in (Pass(seat), Pass(match.hand.turn), Play(match.hand.turn, T("6-6"), 1)):
        with pytest.raises(IllegalMove):
            apply(match, action)
    assert snapshot(match) == before
    assert match == case_match("match_to_100_3_seats", hand=4, upto=5)


# --- start_hand: deals and hands out of place ---------------------------------------------

GOOD = ["6-6 5-5 4-4 6-5 6-4 6-3 6-2", "6-1 6-0 5-4 5-3 5-2 5-1 5-0"]


def _deal_with(hands, stock=""):
    dealt, rest = deal_of(hands, stock)
    return dealt, rest


def _three_hands_for_two_seats():
    dealt, stock = _deal_with(GOOD + ["4-3 4-2 4-1 4-0 3-3 3-2 3-1"])
    return 2, dealt, stock


def _one_hand_for_two_seats():
    dealt, stock = _deal_with(GOOD)
    return 2, dealt[:1], stock + dealt[1]


def _six_tiles():
    dealt, stock = _deal_with(GOOD)
    return 2, (dealt[0][:6], dealt[1]), (dealt[0][6],) + stock


def _eight_tiles():
    dealt, stock = _deal_with(GOOD)
    return 2, (dealt[0] + stock[:1], dealt[1]), stock[1:]


def _a_tile_twice():
    dealt, stock = _deal_with(GOOD)
    return 2, dealt, stock[:-1] + (T("6-6"),)


def _a_tile_missing():
    dealt, stock = _deal_with(GOOD)
    return 2, dealt, stock[:-1]


def _an_extra_stock_tile_with_four_seats():
    dealt, stock = _deal_with(GOOD + ["4-3 4-2 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0"])
    assert stock == ()
    return 4, dealt, (T("1-0"),)


def _four_doubles():
    dealt, stock = _deal_with(["6-6 5-5 4-4 3-3 6-5 6-4 6-3", "6-2 6-1 6-0 5-4 5-3 5-2 5-1"])
    return 2, dealt, stock


def _four_doubles_in_the_last_of_four_seats():
    dealt, stock = _deal_with(
        [
            "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
            "5-5 5-4 5-3 5-2 5-1 5-0 4-3",
            "4-4 4-2 4-1 4-0 3-2 3-1 3-0",
            "3-3 2-2 1-1 0-0 2-1 2-0 1-0",
        ]
    )
    return 4, dealt, stock


def _four_doubles_and_a_tile_twice():
    seats, dealt, stock = _four_doubles()
    return seats, dealt, stock[:-1] + (T("6-6"),)


DEAL_REFUSALS = [
    ("bad_deal", "R4", _three_hands_for_two_seats),
    ("bad_deal", "R4", _one_hand_for_two_seats),
    ("bad_deal", "R4", _six_tiles),
    ("bad_deal", "R4", _eight_tiles),
    ("bad_deal", "R1", _a_tile_twice),
    ("bad_deal", "R1", _a_tile_missing),
    ("bad_deal", "R1", _an_extra_stock_tile_with_four_seats),
    ("redeal_required", "R5", _four_doubles),
    ("redeal_required", "R5", _four_doubles_in_the_last_of_four_seats),
    ("bad_deal", "R1", _four_doubles_and_a_tile_twice),  # bad_deal is checked first
]


@pytest.mark.parametrize(
    ("code", "rule", "build"),
    DEAL_REFUSALS,
    ids=[build.__name__[1:] for *_, build in DEAL_REFUSALS],
)
def test_start_hand_refuses_a_bad_deal(code, rule, build):
    seats, dealt, stock = build()
    match = empty_match(seats)
    with pytest.raises(IllegalMove) as refused:
        start_hand(match, dealt=dealt, stock=stock)
    assert (refused.value.code, refused.value.rule) == (code, rule)
    assert refused.value.rule in RECORD_CODES[code]
    assert match.hands == ()


def test_a_later_hand_s_deal_is_checked_too():
    finished = after_domino()
    before = snapshot(finished)
    _, dealt, stock = _four_doubles()
    with pytest.raises(IllegalMove) as refused:
        start_hand(finished, dealt=dealt, stock=stock)
    assert refused.value.code == "redeal_required"
    assert snapshot(finished) == before


@pytest.mark.parametrize(
    ("position", "code", "rule"),
    [
        pytest.param(ends_6_5, "hand_in_progress", "R17", id="unfinished-hand"),
        pytest.param(must_draw, "hand_in_progress", "R17", id="unfinished-hand-owing-a-draw"),
        pytest.param(after_target, "hand_over", "R25", id="match-won"),
        pytest.param(abandoned, "hand_over", "R25", id="match-abandoned-mid-hand"),
    ],
)
def test_start_hand_refuses_a_hand_out_of_place(position, code, rule):
    match = position()
    before = snapshot(match)
    with pytest.raises(IllegalMove) as refused:
        start_hand(match, dealt=_deal_with(GOOD)[0], stock=_deal_with(GOOD)[1])
    assert (refused.value.code, refused.value.rule) == (code, rule)
    with pytest.raises(IllegalMove):
        start_hand(match, seed=b"any seed")
    assert snapshot(match) == before


# --- the table itself ---------------------------------------------------------------------


def test_the_engine_knows_exactly_record_md_s_codes():
    assert set(RULE_FOR_CODE) == set(RECORD_CODES)
    for code, rule in RULE_FOR_CODE.items():
        assert rule in RECORD_CODES[code], code


def test_every_code_is_exercised_above():
    exercised = {code for code, *_ in APPLY_REFUSALS} | {code for code, *_ in DEAL_REFUSALS}
    exercised.add("hand_in_progress")
    assert exercised == set(RECORD_CODES)


def test_an_unknown_code_cannot_be_raised():
    with pytest.raises(ValueError):
        IllegalMove("no_such_code", "message")


@pytest.mark.parametrize(
    ("hands", "stock", "leader", "wrong"),
    [
        pytest.param(
            ["6-5 4-4 5-3 4-3 6-1 3-1 0-0", "5-5 6-3 6-2 1-0 4-2 2-1 6-0"],
            "6-6",
            1,
            "6-3",
            id="R8-highest-double",
        ),
        pytest.param(
            ["5-4 6-2 6-1 6-0 5-0 4-0 3-0", "6-3 5-3 5-2 4-3 5-1 4-2 4-1"],
            "6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4 3-2 3-1 2-1 2-0 1-0",
            1,
            "5-3",
            id="R9-heaviest-tile",
        ),
    ],
)
def test_wrong_lead_when_r8_or_r9_demands_the_lead(hands, stock, leader, wrong):
    """RECORD.md: wrong_lead cites one of R7-R9. (The engine always cites R7, even when R8
    or R9 chose the tile; RECORD.md's range allows it.)"""
    match = table(hands, stock=stock)
    with pytest.raises(IllegalMove) as refused:
        apply(match, Play(leader, T(wrong)))
    assert refused.value.code == "wrong_lead"
    assert refused.value.rule in RECORD_CODES["wrong_lead"]
    with pytest.raises(IllegalMove) as refused:
        apply(match, Play(1 - leader, T(hands[1 - leader].split()[0])))
    assert refused.value.code == "not_your_turn"
