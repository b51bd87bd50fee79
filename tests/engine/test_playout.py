"""The fast playout path (``dominoes.playout``) agrees with the engine, move for move.

For many seeds and 2/3/4 seats the same random choices are played through ``Position``
and through ``dominoes.engine`` (``legal_moves``/``play_turn``/``advance``); the legal
plays (tile/end pairs) must match at every step, and so must the hand's end, winners,
points and counts (R11-R24). Pure engine code: no database, no Django.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominoes.engine import advance, apply, legal_moves, new_match, play_turn, start_hand
from dominoes.engine import first_lead as engine_first_lead
from dominoes.playout import (
    DOUBLES,
    OTHER,
    PIP_MASK,
    TILE_INDEX,
    TILES,
    Position,
    first_hand_position,
    first_lead,
    play_random_hands,
    random_deal,
    random_order,
    random_playout,
    score_hands,
    tables_for,
)
from dominoes.rules import CLASSIC, Rules
from dominoes.scoring import score_blocked, score_domino
from dominoes.state import HandEnd, MatchState, Play
from dominoes.tiles import Tile, full_set, parse_tile

#: Profiles beyond CLASSIC that the engine supports; the fast path must follow them too.
NO_STOCK_ANY_LEAD = Rules(name="test-no-stock", draw_from_stock=False, first_lead="any")
PARTNER_TILES = Rules(name="test-partner-tiles", partner_tiles_count=True)


def engine_plays(match: MatchState) -> list[tuple[int, int]]:
    """The engine's legal moves as ``(tile_index, end_pip or -1)``."""
    return [(TILE_INDEX[m.tile], -1 if m.end is None else m.end) for m in legal_moves(match)]


def assert_same_position(pos: Position, match: MatchState) -> None:
    hand = match.hand
    assert pos.hands == [sum(1 << TILE_INDEX[tile] for tile in tiles) for tiles in hand.holdings]
    assert [pos.holding(s) for s in range(match.seats)] == [list(t) for t in hand.holdings]
    assert pos.ends == hand.ends
    if match.rules.draw_from_stock:
        assert pos.stock_left == hand.stock_left
        assert [TILES[t] for t in pos.remaining_stock()] == list(hand.stock[hand.drawn :])
    assert pos.tile_counts() == tuple(len(tiles) for tiles in hand.holdings)
    assert pos.is_over == hand.is_over
    if not hand.is_over:
        assert pos.turn == hand.turn
        assert pos.leader == hand.leader


def play_both(match: MatchState, rng: random.Random) -> tuple[MatchState, Position]:
    """Play the current hand to its end through both paths with the same random choices,
    checking agreement at every step."""
    pos = Position.from_match(match)
    assert_same_position(pos, match)
    while not match.hand.is_over:
        expected = engine_plays(match)
        got = pos.legal_plays()
        assert len(got) == len(set(got))
        assert sorted(got) == sorted(expected)
        tile, end = got[rng.randrange(len(got))]
        play = pos.engine_play(tile, end)
        assert play == Play(match.hand.turn, TILES[tile], None if end < 0 else end)
        match = play_turn(match, play)
        pos.play(tile, end)
        assert_same_position(pos, match)
        # A position rebuilt from the engine state at any point is the same position.
        again = Position.from_match(match)
        assert (again.hands, again.ends, again.result()) == (pos.hands, pos.ends, pos.result())
        assert pos.is_over or again.turn == pos.turn
    result = match.hand.result
    assert pos.result() == (result.end, result.winners, result.points, result.counts)
    assert pos.hand_result() == result
    assert pos.legal_plays() == []
    return match, pos


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_hands_agree_with_engine(seats: int) -> None:
    ends = set()
    for n in range(40):
        rng = random.Random(n)
        match = new_match(seats, 100, seed=b"playout-%d-%d" % (seats, n))
        match, pos = play_both(match, rng)
        ends.add(pos.end)
        if not match.is_over:  # a later hand: any tile may lead (R10)
            match = start_hand(match, seed=b"playout-next-%d-%d" % (seats, n))
            assert Position.from_match(match).required == -1
            play_both(match, rng)
    assert ends == {HandEnd.DOMINO, HandEnd.BLOCKED}


@settings(max_examples=40, deadline=None)
@given(
    seats=st.sampled_from([2, 3, 4]),
    seed=st.binary(min_size=1, max_size=8),
    choices=st.integers(0, 2**32),
    rules=st.sampled_from([CLASSIC, NO_STOCK_ANY_LEAD, PARTNER_TILES]),
)
def test_any_deal_and_choices_agree_with_engine(
    seats: int, seed: bytes, choices: int, rules: Rules
) -> None:
    match = new_match(seats, 50, seed=seed, rules=rules)
    play_both(match, random.Random(choices))


def replay_through_engine(match: MatchState, rng: random.Random) -> MatchState:
    """Play ``match``'s hand with the choice rule ``random_playout`` documents:
    ``legal_plays()[int(rng.random() * n)]``, one draw per play with two or more choices."""
    pos = Position.from_match(match)
    while not match.hand.is_over:
        plays = pos.legal_plays()
        tile, end = plays[int(rng.random() * len(plays))] if len(plays) > 1 else plays[0]
        match = play_turn(match, Play(match.hand.turn, TILES[tile], None if end < 0 else end))
        pos.play(tile, end)
    return match


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("rules", [CLASSIC, NO_STOCK_ANY_LEAD])
def test_random_playout_is_the_documented_choice_rule(seats: int, rules: Rules) -> None:
    for n in range(40):
        match = new_match(seats, 100, seed=b"rp-%d-%d" % (seats, n), rules=rules)
        if n % 2:  # start mid-hand too
            first = engine_plays(match)[0]
            match = play_turn(
                match, Play(match.hand.turn, TILES[first[0]], None if first[1] < 0 else first[1])
            )
        pos = Position.from_match(match)
        kept = pos.copy()
        got = random_playout(pos, random.Random(n))
        final = replay_through_engine(match, random.Random(n))
        result = final.hand.result
        assert got == (result.end, result.winners, result.points, result.counts)
        assert pos.result() == got and pos.is_over
        assert_same_position(pos, final)
        assert kept.result() is None and kept.hands == Position.from_match(match).hands


def test_from_holdings_matches_from_match_mid_hand() -> None:
    for seats in (2, 3, 4):
        for n in range(30):
            rng = random.Random(n)
            match = new_match(seats, 100, seed=b"fh-%d-%d" % (seats, n))
            for _ in range(rng.randrange(1, 8)):
                if match.hand.is_over:
                    break
                move = rng.choice(legal_moves(match))
                match = play_turn(match, move)
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
            )
            ref = Position.from_match(match)
            assert (pos.hands, pos.remaining_stock(), pos.ends, pos.turn) == (
                ref.hands,
                ref.remaining_stock(),
                ref.ends,
                ref.turn,
            )
            assert sorted(pos.legal_plays()) == sorted(engine_plays(match))


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


#: Holdings all counting 3, to force ties on the lowest count (R22, R23): some broken by
#: the lowest tile, some (``[2-1]`` against ``[3-0]``) not at all.
TIED_THREE = [["2-1"], ["3-0"], ["1-1", "1-0"], ["2-0", "1-0"], ["0-0", "2-1"], ["0-0", "3-0"]]


def _random_holdings(rng: random.Random, seats: int) -> list[list[Tile]]:
    holdings: list[list[Tile]] = []
    used: set[Tile] = set()
    if rng.random() < 0.5:
        for names in rng.sample(TIED_THREE, len(TIED_THREE)):
            tiles = [parse_tile(name) for name in names]
            if len(holdings) < 2 and not used & set(tiles):
                holdings.append(tiles)
                used.update(tiles)
    rest = [tile for tile in full_set() if tile not in used]
    rng.shuffle(rest)
    while len(holdings) < seats:
        size = rng.randrange(0, 8)
        holdings.append(rest[:size])
        rest = rest[size:]
    rng.shuffle(holdings)
    return holdings


@settings(max_examples=120, deadline=None)
@given(
    seats=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    rules=st.sampled_from([CLASSIC, PARTNER_TILES]),
)
def test_score_hands_equals_scoring_module(seats: int, seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    holdings = _random_holdings(rng, seats)
    masks = [sum(1 << TILE_INDEX[tile] for tile in tiles) for tiles in holdings]
    blocked = score_blocked(rules, holdings)
    assert score_hands(rules, masks, HandEnd.BLOCKED) == (
        blocked.end,
        blocked.winners,
        blocked.points,
        blocked.counts,
    )
    seat = rng.randrange(seats)
    domino = score_domino(rules, holdings, seat)
    assert score_hands(rules, masks, HandEnd.DOMINO, seat) == (
        domino.end,
        domino.winners,
        domino.points,
        domino.counts,
    )


def test_tables() -> None:
    tables = tables_for(6)
    assert len(TILES) == 28 and TILES[0] == Tile(6, 6) and TILES[27] == Tile(0, 0)
    for pip in range(7):
        assert PIP_MASK[pip] == sum(1 << i for i, tile in enumerate(TILES) if tile.has(pip))
    for i, tile in enumerate(TILES):
        assert TILE_INDEX[tile] == i
        for pip in range(7):
            assert OTHER[i][pip] == (tile.other(pip) if tile.has(pip) else -1)
    assert DOUBLES.bit_count() == 7
    assert tables.mask_value(tables.all_mask) == 168  # R1
    assert [TILES[i] for i in tables.heavy_order[:3]] == [Tile(6, 6), Tile(6, 5), Tile(6, 4)]
    assert len(tables_for(9).tiles) == 55


def test_random_deal_and_first_lead_follow_the_rules() -> None:
    rng = random.Random(7)
    assert sorted(random_order(28, rng)) == list(range(28))
    for seats in (2, 3, 4):
        for _ in range(300):
            hands, stock = random_deal(CLASSIC, seats, rng)
            assert all(mask.bit_count() == 7 for mask in hands)
            assert all((mask & DOUBLES).bit_count() < 4 for mask in hands)  # R5
            union = 0
            for mask in hands:
                assert not union & mask
                union |= mask
            assert union | sum(1 << t for t in stock) == (1 << 28) - 1
            assert len(stock) == 28 - 7 * seats
            dealt = [[TILES[t] for t in range(28) if mask >> t & 1] for mask in hands]
            seat, tile, _ = engine_first_lead(CLASSIC, dealt)
            assert first_lead(tables_for(6), CLASSIC, hands) == (seat, TILE_INDEX[tile])
            pos = first_hand_position(CLASSIC, seats, hands, stock)
            lead = [(TILE_INDEX[tile], -1)]
            assert (pos.turn, pos.leader, pos.legal_plays()) == (seat, seat, lead)
    # R9: no doubles dealt (2 seats, every double in the stock): the heaviest tile leads.
    no_doubles = [t for t in range(28) if not DOUBLES >> t & 1]
    hands = [sum(1 << t for t in no_doubles[7:14]), sum(1 << t for t in no_doubles[:7])]
    assert first_lead(tables_for(6), CLASSIC, hands) == (1, TILE_INDEX[parse_tile("6-5")])


def test_play_random_hands_is_reproducible_and_plausible() -> None:
    for seats in (2, 3, 4):
        results = play_random_hands(seats, 300, seed=5)
        assert results == play_random_hands(seats, 300, seed=5)
        for end, winners, points, counts in results:
            assert end in (HandEnd.DOMINO, HandEnd.BLOCKED)
            assert len(counts) == seats and points >= 0
            if end is HandEnd.DOMINO:
                assert len(winners) == (2 if seats == 4 else 1)
                assert min(counts[s] for s in winners) == 0
        assert {r[0] for r in results} == {HandEnd.DOMINO, HandEnd.BLOCKED}


def test_finished_match_hand_gives_finished_position() -> None:
    match = new_match(2, 50, seed=b"over")
    rng = random.Random(3)
    while not match.hand.is_over:
        match = play_turn(match, rng.choice(legal_moves(match)))
    pos = Position.from_match(match)
    assert pos.is_over and pos.hand_result() == match.hand.result
    with pytest.raises(ValueError):
        pos.play(0, -1)
    assert random_playout(pos, rng) == pos.result()


def test_unadvanced_engine_state_is_settled() -> None:
    """``from_match`` on a state where the seat to act still owes draws (``apply`` without
    ``advance``) applies them, like ``advance``."""
    for n in range(40):
        match = new_match(2, 100, seed=b"owed-%d" % n)
        rng = random.Random(n)
        while not match.hand.is_over:
            raw = apply(match, rng.choice(legal_moves(match)))
            pos = Position.from_match(raw)
            match = advance(raw)
            assert_same_position(pos, match)
            if not match.hand.is_over:
                assert sorted(pos.legal_plays()) == sorted(engine_plays(match))
            else:
                assert pos.hand_result() == match.hand.result
