"""The fast playout path (``dominoes.playout``) agrees with the engine, move for move.

For many seeds, every profile of ``dominoes.rules`` and each of its table sizes, the same
random choices are played through ``Position`` and through ``dominoes.engine``
(``legal_moves``/``optional_actions``/``apply``/``advance``); the legal plays (tile/end
pairs) and the draw-or-pass choices (``draw_optional``) must match at every step, and so
must the hand's end, winners, points, counts and capicúa (R11-R24 and the profiles'
fields). Pure engine code: no database, no Django.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominoes.engine import (
    abandon,
    advance,
    apply,
    legal_moves,
    new_match,
    optional_actions,
    play_turn,
    start_hand,
)
from dominoes.engine import first_lead as engine_first_lead
from dominoes.playout import (
    DOUBLES,
    DRAW,
    OTHER,
    PASS,
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
    unsupported,
)
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.scoring import score_blocked, score_domino
from dominoes.state import Draw, HandEnd, MatchState, Pass, Play
from dominoes.tiles import Tile, full_set, parse_tile
from tests.support.engine import position_state

#: Profiles beyond CLASSIC that the engine supports; the fast path must follow them too.
NO_STOCK_ANY_LEAD = Rules(name="test-no-stock", draw_from_stock=False, first_lead="any")
PARTNER_TILES = Rules(name="test-partner-tiles", partner_tiles_count=True)


def engine_plays(match: MatchState) -> list[tuple[int, int]]:
    """The engine's legal moves as ``(tile_index, end_pip or -1)``."""
    index = tables_for(match.rules.max_pip).index
    return [(index[m.tile], -1 if m.end is None else m.end) for m in legal_moves(match)]


def engine_actions(match: MatchState) -> list[tuple[int, int]]:
    """The engine's legal moves, or its optional draw and pass as ``(DRAW | PASS, -1)``."""
    plays = engine_plays(match)
    if plays:
        return plays
    return [(DRAW if isinstance(a, Draw) else PASS, -1) for a in optional_actions(match)]


def passes_since_play(match: MatchState) -> int:
    """Passes since the last play, by the seats still playing (``leavers_sit_out``)."""
    passes = 0
    for action in reversed(match.hand.actions):
        if isinstance(action, Play):
            break
        passes += isinstance(action, Pass) and action.seat not in match.hand.out_seats
    return passes


def assert_same_position(pos: Position, match: MatchState) -> None:
    hand = match.hand
    index = tables_for(match.rules.max_pip).index
    assert pos.hands == [sum(1 << index[tile] for tile in tiles) for tiles in hand.holdings]
    assert [pos.holding(s) for s in range(match.seats)] == [list(t) for t in hand.holdings]
    assert pos.ends == hand.ends
    if match.rules.draw_from_stock:
        assert pos.stock_left == hand.stock_left
        tiles = pos.tables.tiles
        assert [tiles[t] for t in pos.remaining_stock()] == list(hand.stock[hand.drawn :])
    assert pos.tile_counts() == tuple(len(tiles) for tiles in hand.holdings)
    assert pos.is_over == hand.is_over
    if not hand.is_over:
        assert pos.turn == hand.turn
        assert pos.leader == hand.leader
        assert pos.choosing == bool(optional_actions(match))
        if match.rules.draw_optional:
            assert pos.passes == passes_since_play(match)


def play_both(match: MatchState, rng: random.Random) -> tuple[MatchState, Position]:
    """Play the current hand to its end through both paths with the same random choices
    (plays, and draws or passes where the seat may choose), checking agreement at every
    step."""
    pos = Position.from_match(match)
    assert_same_position(pos, match)
    while not match.hand.is_over:
        assert sorted(pos.legal_plays()) == sorted(engine_plays(match))
        got = pos.legal_actions()
        assert len(got) == len(set(got))
        assert sorted(got) == sorted(engine_actions(match))
        tile, end = got[rng.randrange(len(got))]
        action = pos.engine_action(tile, end)
        if tile >= 0:
            assert action == pos.engine_play(tile, end)
            assert action == Play(match.hand.turn, pos.tables.tiles[tile], None if end < 0 else end)
        else:
            assert action == optional_actions(match)[0 if tile == DRAW else 1]
        match = advance(apply(match, action))
        pos.act(tile, end)
        assert_same_position(pos, match)
        # A position rebuilt from the engine state at any point is the same position.
        again = Position.from_match(match)
        assert (again.hands, again.ends, again.result()) == (pos.hands, pos.ends, pos.result())
        assert pos.is_over or again.turn == pos.turn
    result = match.hand.result
    assert pos.result() == (result.end, result.winners, result.points, result.counts)
    assert pos.hand_result() == result
    assert pos.legal_plays() == [] and pos.legal_actions() == []
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


#: Every (profile, table size) the engine plays.
PROFILE_TABLES = [
    (name, seats) for name in sorted(PROFILES) for seats in PROFILES[name].seat_counts
]
#: Hands per (profile, table size) in the seeded loop (each match: a first and a later hand).
HANDS_PER_TABLE = 150


def _events(match: MatchState) -> set[str]:
    """The rare profile rules a finished hand went through (to check the loop covers them)."""
    hand, rules = match.hand, match.rules
    result = hand.result
    events = {result.end.value}
    if result.capicua:
        events.add("capicua")
    plays = sum(isinstance(a, Play) for a in hand.actions)
    draws = sum(isinstance(a, Draw) for a in hand.actions)
    if sum(map(len, hand.holdings)) > sum(map(len, hand.dealt)) - plays + draws:
        events.add("stock_to_rival")
    counts = result.counts
    if (
        result.end is HandEnd.BLOCKED
        and result.winners
        and rules.partnerships(match.seats)
        and counts[0] + counts[2] == counts[1] + counts[3]
    ):
        events.add("tie_to_leader_team")
    if result.end is HandEnd.BLOCKED and hand.stock_left and rules.draw_optional:
        events.add("round_of_passes")
    if result.end is HandEnd.BLOCKED and rules.blocked_points == "differences" and result.winners:
        events.add("differences")
    if result.end is HandEnd.BLOCKED and rules.blocked_pairs == "lowest_player":
        totals = (counts[0] + counts[2], counts[1] + counts[3])
        if result.winners and totals[result.winners[0] % 2] >= totals[1 - result.winners[0] % 2]:
            events.add("lowest_player_without_lower_total")
    return events


#: The profile rules the seeded loop must have exercised, per profile.
EXPECTED_EVENTS = {
    "cuban": {"capicua", "lowest_player_without_lower_total"},
    "two_player": {"stock_to_rival", "differences"},
    "three_player": {"differences"},
    "spain_pairs": {"tie_to_leader_team"},
    "seven_plus_seven": {"tie_to_leader_team"},
    "first_double": {"round_of_passes"},
}


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_agrees_with_engine_move_for_move(name: str) -> None:
    """Seeded loop: every profile, each of its table sizes, a first and a later hand."""
    rules = PROFILES[name]
    assert unsupported(rules) is None
    events: set[str] = set()
    for seats in rules.seat_counts:
        for n in range(HANDS_PER_TABLE // 2):
            rng = random.Random(n)
            seed = b"every-%s-%d-%d" % (name.encode(), seats, n)
            match = new_match(seats, rules.targets[0], seed=seed, rules=rules)
            match, _ = play_both(match, rng)
            events |= _events(match)
            if not match.is_over:  # a later hand: its lead rotates or goes to the winners
                match = start_hand(match, seed=b"later-" + seed)
                match, _ = play_both(match, rng)
                events |= _events(match)
    assert {"domino", "blocked"} | EXPECTED_EVENTS.get(name, set()) <= events


@settings(max_examples=60, deadline=None)
@given(
    table=st.sampled_from(PROFILE_TABLES),
    seed=st.binary(min_size=1, max_size=8),
    choices=st.integers(0, 2**32),
)
def test_any_profile_deal_and_choices_agree_with_engine(
    table: tuple[str, int], seed: bytes, choices: int
) -> None:
    name, seats = table
    rules = PROFILES[name]
    match = new_match(seats, rules.targets[0], seed=seed, rules=rules)
    play_both(match, random.Random(choices))


def _leave_mid_hand(match: MatchState, rng: random.Random, leavers: int) -> MatchState:
    """Play a few random actions through the engine, then ``leavers`` seats leave (R26
    under ``leavers_sit_out``) at random moments, the hand going on after each."""
    for _ in range(leavers):
        for _ in range(rng.randrange(8)):
            if match.hand.is_over:
                return match
            actions = engine_actions(match)
            tile, end = actions[rng.randrange(len(actions))]
            match = advance(apply(match, Position.from_match(match).engine_action(tile, end)))
        if match.is_over:
            return match
        playing = [s for s in range(match.seats) if s not in match.hand.out_seats]
        match = advance(abandon(match, rng.choice(playing)))
    return match


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_first_double_with_leavers_agrees_with_engine_move_for_move(seats: int) -> None:
    """A seat leaves mid-hand (``first_double``): the fast path skips it as the engine does,
    its tiles fit nothing and score for nobody, down to the same result."""
    rules = PROFILES["first_double"]
    seen = {"over": 0, "played_on": 0}
    for n in range(80):
        rng = random.Random(n)
        match = new_match(seats, 1, seed=b"leave-%d-%d" % (seats, n), rules=rules)
        match = _leave_mid_hand(match, rng, 1 if seats < 4 else 1 + n % 2)
        if match.is_over:
            seen["over"] += 1
            if not match.hand.is_over:  # one player stayed: that one won
                assert match.winners == tuple(
                    s for s in range(seats) if s not in match.hand.out_seats
                )
            continue
        seen["played_on"] += 1
        kept = match
        match, _ = play_both(match, rng)
        assert not set(match.hand.result.winners) & set(match.hand.out_seats)
        pos = Position.from_match(kept)
        got = random_playout(pos, random.Random(n))
        final = replay_through_engine(kept, random.Random(n))
        result = final.hand.result
        assert got == (result.end, result.winners, result.points, result.counts)
    assert seen["played_on"] if seats > 2 else seen["over"] == 80


def replay_through_engine(match: MatchState, rng: random.Random) -> MatchState:
    """Play ``match``'s hand with the choice rule ``random_playout`` documents:
    ``legal_actions()[int(rng.random() * n)]``, one draw per action with two or more
    choices."""
    pos = Position.from_match(match)
    while not match.hand.is_over:
        actions = pos.legal_actions()
        tile, end = actions[int(rng.random() * len(actions))] if len(actions) > 1 else actions[0]
        match = advance(apply(match, pos.engine_action(tile, end)))
        pos.act(tile, end)
    return match


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


@pytest.mark.parametrize(("name", "seats"), PROFILE_TABLES)
def test_play_random_hands_is_random_playout_of_random_deals(name: str, seats: int) -> None:
    """``play_random_hands`` is the documented composition, for every profile, and its
    deals are the profile's: set, excluded tiles, tiles per seat, stock, redeals."""
    rules = PROFILES[name]
    tables = tables_for(rules.max_pip)
    rng = random.Random(11)
    expected = []
    for _ in range(60):
        hands, stock = random_deal(rules, seats, rng)
        assert all(mask.bit_count() == rules.tiles_per_seat[seats] for mask in hands)
        dealt = 0
        for mask in hands:
            assert not dealt & mask
            dealt |= mask
        every = dealt | sum(1 << t for t in stock)
        assert not dealt & sum(1 << t for t in stock)
        if rules.draw_from_stock:
            assert every == sum(1 << tables.index[tile] for tile in rules.tile_set())
        else:
            assert stock == () and dealt & ~every == 0
        assert not any(dealt >> tables.index[tile] & 1 for tile in rules.excluded_tiles)
        if rules.first_lead == "double":
            assert dealt & tables.doubles
        pos = first_hand_position(rules, seats, hands, stock, rng)
        expected.append(random_playout(pos, rng))
    assert play_random_hands(seats, 60, seed=11, rules=rules) == expected


@pytest.mark.parametrize(("name", "seats"), PROFILE_TABLES)
def test_first_lead_matches_the_engine(name: str, seats: int) -> None:
    rules = PROFILES[name]
    tables = tables_for(rules.max_pip)
    rng = random.Random(5)
    leaders = set()
    for n in range(40):
        match = new_match(seats, rules.targets[0], seed=b"lead-%d" % n, rules=rules)
        hands = [sum(1 << tables.index[t] for t in tiles) for tiles in match.hand.holdings]
        leader, required = first_lead(tables, rules, hands, rng)
        leaders.add(leader)
        if rules.first_lead == "lot":  # any seat, by lot: the engine's is from the seed
            assert required == -1
            continue
        assert leader == match.hand.leader
        want = match.hand.required_lead
        assert required == (-1 if want is None else tables.index[want])
        pos = first_hand_position(rules, seats, hands, (), rng)
        assert sorted(pos.legal_plays()) == sorted(engine_plays(match))
    if rules.first_lead == "lot":
        assert leaders == set(range(seats))
        with pytest.raises(ValueError):
            first_lead(tables, rules, hands)


def test_score_hands_follows_every_profile_scoring_field() -> None:
    """``score_hands`` against ``dominoes.scoring`` for every profile: differences,
    ties to the leader's pair, partners' tiles, capicúa."""
    rng = random.Random(3)
    for name, seats in PROFILE_TABLES:
        rules = PROFILES[name]
        index = tables_for(rules.max_pip).index
        for _ in range(150):
            holdings = _random_holdings(rng, seats)
            masks = [sum(1 << index[tile] for tile in tiles) for tiles in holdings]
            leader = rng.randrange(seats)
            blocked = score_blocked(rules, holdings, leader)
            got = score_hands(rules, masks, HandEnd.BLOCKED, leader=leader)
            assert got == (blocked.end, blocked.winners, blocked.points, blocked.counts)
            seat = rng.randrange(seats)
            capicua = rng.random() < 0.5
            domino = score_domino(rules, holdings, seat, capicua)
            got = score_hands(rules, masks, HandEnd.DOMINO, seat, capicua=capicua)
            assert got == (domino.end, domino.winners, domino.points, domino.counts)


def test_draw_optional_choices_and_round_of_passes() -> None:
    """``first_double``: a seat with no fitting tile and stock left chooses; a fitting seat
    may neither draw nor pass; a whole round of passes blocks the hand."""
    t = parse_tile
    rules = PROFILES["first_double"]
    holdings = [[t("0-0"), t("1-0")], [t("2-2"), t("2-1")]]
    pos = Position.from_holdings(rules, 2, holdings, [t("3-3"), t("6-5")], (6, 6), 0, 0, None)
    assert pos.choosing and pos.turn == 0 and pos.legal_plays() == []
    assert pos.legal_actions() == [(DRAW, -1), (PASS, -1)]
    assert pos.engine_action(DRAW, -1) == Draw(0, t("3-3"))
    assert pos.engine_action(PASS, -1) == Pass(0)
    copy = pos.copy()
    copy.act(DRAW, -1)  # 3-3 does not fit: seat 0 chooses again
    assert copy.choosing and copy.turn == 0 and copy.stock_left == 1
    copy.draw()  # 6-5 fits
    assert not copy.choosing and copy.legal_plays() == [(TILE_INDEX[t("6-5")], 6)]
    with pytest.raises(ValueError):
        copy.draw()
    with pytest.raises(ValueError):
        copy.pass_turn()
    pos.pass_turn()
    assert pos.choosing and pos.turn == 1 and pos.passes == 1
    pos.act(PASS, -1)  # the second pass of a two-seat round: blocked (R21 scoring)
    assert pos.is_over and pos.end is HandEnd.BLOCKED and pos.stock_left == 2
    assert pos.hand_result() == score_blocked(rules, holdings, 0)
    # Only doubles lead under first_lead="double".
    lead = Position.from_holdings(rules, 2, holdings, [], None, 0, 0, None)
    assert lead.legal_plays() == [(TILE_INDEX[t("0-0")], -1)]
    with pytest.raises(ValueError):
        lead.play(TILE_INDEX[t("1-0")], -1)


def test_stock_goes_to_the_closers_rival() -> None:
    """``two_player``: once no unplayed tile fits, the hand blocks at once and the stock
    joins the count of the closer's rival, scored by differences."""
    t = parse_tile
    rules = PROFILES["two_player"]
    # Ends 5/4; seat 0 plays 4-5 on the 4 (ends 5/5) and nothing left shows a 5.
    holdings = [[t("5-4"), t("1-0")], [t("2-2"), t("3-0")]]
    pos = Position.from_holdings(rules, 2, holdings, [t("6-6"), t("3-3")], (5, 4), 0, 0, None)
    pos.play(TILE_INDEX[t("5-4")], 4)
    assert pos.is_over and pos.end is HandEnd.BLOCKED and pos.stock_left == 0
    assert pos.holding(1) == [t("6-6"), t("3-3"), t("3-0"), t("2-2")]
    assert pos.result() == (HandEnd.BLOCKED, (0,), 25 - 1, (1, 25))
    final = [[t("1-0")], pos.holding(1)]
    assert pos.hand_result() == score_blocked(rules, final, 0)


def test_capicua_scores_the_bonus() -> None:
    """``cuban``: a last tile, not a double, fitting both (different) ends scores twice."""

    def t(name: str) -> Tile:
        return parse_tile(name, 9)

    rules = PROFILES["cuban"]
    holdings = [[t("9-4")], [t("2-2")], [t("3-3")], [t("8-8")]]
    pos = Position.from_holdings(rules, 4, holdings, [], (9, 4), 0, 0, None)
    last = pos.tables.index[t("9-4")]
    assert sorted(pos.legal_plays()) == [(last, 4), (last, 9)]
    pos.play(last, 9)
    assert pos.capicua and pos.result() == (HandEnd.DOMINO, (0, 2), 2 * (4 + 16), (0, 4, 6, 16))
    assert pos.hand_result() == score_domino(rules, [[], *holdings[1:]], 0, True)
    # Not a capicúa: the same tile on a line whose ends are equal.
    plain = Position.from_holdings(rules, 4, holdings, [], (9, 9), 0, 0, None)
    plain.play(last, 9)
    assert not plain.capicua and plain.points == 4 + 16
