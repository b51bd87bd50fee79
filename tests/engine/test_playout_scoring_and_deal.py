"""The fast path's scoring (``score_hands`` against ``dominoes.scoring``), its lookup tables,
its deal and first lead, and the profiles' draw, pass, stock and capicúa rules in it.
Pure engine code: no database, no Django."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominoes.engine import (
    advance,
    apply,
    legal_moves,
    new_match,
    play_turn,
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
)
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.scoring import score_blocked, score_domino
from dominoes.state import Draw, HandEnd, Pass
from dominoes.tiles import Tile, full_set, parse_tile
from tests.support.playout import (
    PARTNER_TILES,
    PROFILE_TABLES,
    assert_same_position,
    engine_plays,
)

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
