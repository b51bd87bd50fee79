"""The fast path's ``Position``: ``random_playout`` is the documented choice rule, a position
built from holdings is the one built from the match, and ``play`` refuses illegal plays.
Pure engine code: no database, no Django."""

from __future__ import annotations

import random

import pytest

from dominoes.engine import (
    advance,
    apply,
    new_match,
    optional_actions,
    play_turn,
)
from dominoes.playout import (
    TILE_INDEX,
    Position,
    random_playout,
    tables_for,
)
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.scoring import score_blocked
from dominoes.state import HandEnd, Play
from dominoes.tiles import parse_tile
from tests.support.engine import position_state
from tests.support.playout import (
    NO_STOCK_ANY_LEAD,
    PROFILE_TABLES,
    assert_same_position,
    engine_actions,
    engine_plays,
    passes_since_play,
    replay_through_engine,
)

RANDOM_PLAYOUT_TABLES = [(CLASSIC, seats) for seats in (2, 3, 4)] + [
    (NO_STOCK_ANY_LEAD, seats) for seats in (2, 3, 4)
]
RANDOM_PLAYOUT_TABLES += [(PROFILES[name], seats) for name, seats in PROFILE_TABLES]


@pytest.mark.parametrize(
    ("rules", "seats"),
    RANDOM_PLAYOUT_TABLES,
    ids=[f"{r.name}-{s}" for r, s in RANDOM_PLAYOUT_TABLES],
)
def test_random_playout_is_the_documented_choice_rule(rules: Rules, seats: int) -> None:
    for n in range(40):
        match = new_match(seats, rules.targets[0], seed=b"rp-%d-%d" % (seats, n), rules=rules)
        if n % 2:  # start mid-hand too
            first = engine_plays(match)[0]
            tile = tables_for(rules.max_pip).tiles[first[0]]
            match = play_turn(
                match, Play(match.hand.turn, tile, None if first[1] < 0 else first[1])
            )
        if n % 4 == 3 and optional_actions(match):  # start with a seat choosing, after a pass
            match = advance(apply(match, optional_actions(match)[1]))
        pos = Position.from_match(match)
        kept = pos.copy()
        got = random_playout(pos, random.Random(n))
        final = replay_through_engine(match, random.Random(n))
        result = final.hand.result
        assert got == (result.end, result.winners, result.points, result.counts)
        assert pos.result() == got and pos.is_over
        assert_same_position(pos, final)
        assert kept.result() is None and kept.hands == Position.from_match(match).hands


@pytest.mark.parametrize(("name", "seats"), PROFILE_TABLES)
def test_from_holdings_matches_from_match_mid_hand(name: str, seats: int) -> None:
    rules = PROFILES[name]
    for n in range(30):
        rng = random.Random(n)
        match = new_match(seats, rules.targets[0], seed=b"fh-%d-%d" % (seats, n), rules=rules)
        for _ in range(rng.randrange(1, 10)):
            if match.hand.is_over:
                break
            pos = Position.from_match(match)
            tile, end = rng.choice(pos.legal_actions())
            match = advance(apply(match, pos.engine_action(tile, end)))
        hand = match.hand
        if hand.is_over:
            continue
        pos = Position.from_holdings(
            match.rules,
            seats,
            [list(tiles) for tiles in hand.holdings],
            list(hand.stock[hand.drawn :]),
            hand.ends,
            hand.turn,
            hand.leader,
            hand.required_lead if hand.ends is None else None,
            passes_since_play(match),
        )
        ref = Position.from_match(match)
        assert position_state(pos) == position_state(ref)
        assert sorted(pos.legal_actions()) == sorted(engine_actions(match))


def test_from_holdings_applies_owed_draws_and_blocks() -> None:
    t = parse_tile
    # Seat 0 to act on ends 6/6 without a six: it draws 1-0 (no fit), then 6-1 (fits).
    pos = Position.from_holdings(
        CLASSIC,
        2,
        [[t("0-0")], [t("2-2"), t("6-2")]],
        [t("1-0"), t("6-1"), t("3-3")],
        (6, 6),
        0,
        0,
        None,
    )
    assert pos.turn == 0 and pos.drawn == 2 and pos.holding(0) == [t("6-1"), t("1-0"), t("0-0")]
    assert pos.legal_plays() == [(TILE_INDEX[t("6-1")], 6)]
    # Seat 0 cannot fit and the stock is empty: seat 0 passes, seat 1 plays.
    pos = Position.from_holdings(CLASSIC, 2, [[t("0-0")], [t("6-2")]], [], (6, 6), 0, 0, None)
    assert pos.turn == 1 and not pos.is_over
    # Nobody fits and the stock is empty: blocked at once (R18), scored as the engine does.
    holdings = [[t("1-0"), t("2-0")], [t("0-0"), t("2-1")], [t("3-0")]]
    pos = Position.from_holdings(CLASSIC, 3, holdings, [], (6, 5), 1, 0, None)
    expected = score_blocked(CLASSIC, holdings)
    assert pos.is_over and pos.hand_result() == expected
    assert expected.winners == (1,)  # R23: all tied on 3; seat 1's 0-0 is the lowest tile
    with pytest.raises(ValueError):
        Position.from_holdings(CLASSIC, 2, [[t("1-0")], [t("1-0")]], [], None, 0, 0, None)
    with pytest.raises(ValueError):
        Position.from_holdings(CLASSIC, 2, [[t("1-0")], []], [], (1, 1), 0, 0, None)


def test_play_refuses_illegal_plays() -> None:
    t = parse_tile
    holdings = [[t("6-6"), t("1-1")], [t("6-0"), t("5-0")], [t("2-2"), t("3-3")], [t("4-4")]]
    pos = Position.from_holdings(CLASSIC, 4, holdings, [], None, 0, 0, t("6-6"))
    assert pos.legal_plays() == [(TILE_INDEX[t("6-6")], -1)] and pos.turn == 0
    with pytest.raises(ValueError):
        pos.play(TILE_INDEX[t("1-1")], -1)  # R7: 6-6 must lead
    with pytest.raises(ValueError):
        pos.play(TILE_INDEX[t("4-4")], -1)  # not seat 0's tile
    pos.play(TILE_INDEX[t("6-6")], -1)
    assert pos.turn == 1 and pos.ends == (6, 6)  # seat 1 holds 6-0
    with pytest.raises(ValueError):
        pos.play(TILE_INDEX[t("5-0")], 6)  # does not fit
    with pytest.raises(ValueError):
        pos.play(TILE_INDEX[t("6-0")], 0)  # no end shows 0
    copy = pos.copy()
    pos.play(TILE_INDEX[t("6-0")], 6)
    assert pos.ends == (6, 0) and pos.turn == 1  # seats 2, 3, 0 pass; seat 1 plays 5-0
    assert copy.ends == (6, 6) and copy.hands != pos.hands
    pos.play(TILE_INDEX[t("5-0")], 0)
    assert pos.result() == (HandEnd.DOMINO, (1, 3), 2 + 10, (2, 0, 10, 8))  # R20
