"""RULES.md R1-R10 through the engine: the set, the seats, the deal and its seed, the lead.

Positions are built through the public API: explicit deals via ``start_hand(match,
dealt=..., stock=...)`` (``tests.support.engine.table``), or the replay cases in
``tests/cases`` played up to a given action (``tests.support.engine.case_match``)."""

from __future__ import annotations

import hashlib

import pytest

from dominoes import (
    CLASSIC,
    IllegalMove,
    Play,
    Tile,
    advance,
    apply,
    deal,
    full_set,
    legal_moves,
    match_to_record,
    new_match,
    new_seed,
    parse_tile,
    seed_sha256,
    start_hand,
)
from dominoes.deal import SeedStream
from dominoes.engine import check_deal, first_lead
from tests.support.engine import (
    BLOCK_PLAYS,
    BLOCK_TIED,
    SEEDS,
    T,
    case_match,
    deal_of,
    doubles,
    play,
    play_block,
    table,
)

# --- R1 the set ---------------------------------------------------------------------------


def test_r1_the_set_is_28_distinct_tiles_worth_168():
    """R1: every unordered pair a-b with 0 <= b <= a <= 6; seven doubles; worth 168."""
    tiles_ = full_set()
    assert len(tiles_) == 28
    assert len(set(tiles_)) == 28
    assert all(0 <= tile.low <= tile.high <= 6 for tile in tiles_)
    assert sum(tile.value for tile in tiles_) == 168
    assert sum(1 for tile in tiles_ if tile.is_double) == 7


@pytest.mark.parametrize(
    ("name", "written", "value"),
    [("6-4", "6-4", 10), ("4-6", "6-4", 10), ("0-0", "0-0", 0), ("6-6", "6-6", 12)],
)
def test_r1_tiles_are_written_high_pip_first_and_worth_their_pips(name, written, value):
    tile = parse_tile(name)
    assert str(tile) == written
    assert tile.value == value


# --- R2, R3 seats and turn order ------------------------------------------------------------


@pytest.mark.parametrize("seats", [0, 1, 5])
def test_r2_a_table_has_2_3_or_4_seats(seats):
    with pytest.raises(ValueError):
        new_match(seats, 100)


@pytest.mark.parametrize(("seats", "partnerships"), [(2, False), (3, False), (4, True)])
def test_r2_only_four_seats_play_in_partnerships_of_opposite_seats(seats, partnerships):
    assert CLASSIC.partnerships(seats) is partnerships
    if partnerships:
        assert [CLASSIC.team_of(seat, seats) for seat in range(4)] == [0, 1, 0, 1]


def test_r3_play_passes_to_the_next_seat_and_wraps_around():
    """R3: seat i is followed by seat (i+1) mod n; in the 4-seat block hand seat 3 is
    followed by seat 0."""
    match = play_block(BLOCK_TIED, upto=0)
    for seat, tile, end in BLOCK_PLAYS[:5]:
        assert match.hand.turn == seat
        match = play(match, seat, tile, end)
        assert match.hand.turn == (seat + 1) % 4


# --- R4-R6 the deal -----------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "stock"), [(2, 14), (3, 7), (4, 0)])
def test_r4_each_seat_is_dealt_7_and_the_rest_is_the_stock(seats, stock):
    for seed in SEEDS[:20]:
        dealt, rest = deal(CLASSIC, seats, seed)
        assert [len(hand) for hand in dealt] == [7] * seats
        assert len(rest) == stock
        assert sorted([*rest, *(tile for hand in dealt for tile in hand)]) == sorted(full_set())
    match = new_match(seats, 100, seed=SEEDS[0])
    assert [len(hand) for hand in match.hand.holdings] == [7] * seats
    assert match.hand.stock_left == stock


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r5_a_seeded_deal_never_gives_a_seat_four_doubles(seats):
    for seed in SEEDS:
        dealt, _ = deal(CLASSIC, seats, seed)
        assert max(doubles(hand) for hand in dealt) <= 3


def _first_shuffle(seed: bytes) -> list[Tile]:
    return SeedStream(seed).shuffle(full_set())


def test_r5_a_deal_with_four_doubles_is_reshuffled_from_the_same_stream():
    """R5 and deal.py's algorithm: the redeal shuffles again, continuing the seed's stream."""
    seed = next(
        seed
        for seed in SEEDS
        if any(doubles(_first_shuffle(seed)[s * 7 : s * 7 + 7]) >= 4 for s in range(2))
    )
    stream = SeedStream(seed)
    order = stream.shuffle(full_set())
    while any(doubles(order[s * 7 : s * 7 + 7]) >= 4 for s in range(2)):
        order = stream.shuffle(full_set())
    dealt, stock = deal(CLASSIC, 2, seed)
    assert list(dealt[0]) + list(dealt[1]) + list(stock) == order
    assert list(dealt[0]) + list(dealt[1]) != _first_shuffle(seed)[:14]


def test_r5_doubles_left_in_the_stock_do_not_count():
    """Five doubles in the stock, three with seat 0: the deal stands."""
    dealt, stock = deal_of(
        ["6-6 5-5 4-4 6-5 6-4 6-3 6-2", "6-1 6-0 5-4 5-3 5-2 5-1 5-0"],
        stock="3-3 2-2 1-1 0-0",
    )
    check_deal(CLASSIC, 2, dealt, stock)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r5_check_deal_refuses_four_doubles_in_one_seat(seats):
    hands = ["6-6 5-5 4-4 3-3 6-5 6-4 6-3", "6-2 6-1 6-0 5-4 5-3 5-2 5-1"]
    hands += ["5-0 4-2 4-1 4-0 3-2 3-1 3-0", "2-2 2-1 2-0 1-1 1-0 0-0 4-3"][: seats - 2]
    dealt, stock = deal_of(hands)
    with pytest.raises(IllegalMove) as refused:
        check_deal(CLASSIC, seats, dealt, stock)
    assert (refused.value.code, refused.value.rule) == ("redeal_required", "R5")


def test_r6_the_same_seed_always_gives_the_same_deal():
    for seats in (2, 3, 4):
        assert deal(CLASSIC, seats, SEEDS[7]) == deal(CLASSIC, seats, SEEDS[7])
    assert new_match(2, 100, seed=SEEDS[7]).hand.dealt == deal(CLASSIC, 2, SEEDS[7])[0]


def test_r6_different_seeds_give_different_deals():
    deals = {deal(CLASSIC, 2, seed) for seed in SEEDS[:100]}
    assert len(deals) == 100


def test_r6_the_published_commitment_is_the_sha256_of_the_seed():
    seed = new_seed()
    assert isinstance(seed, bytes) and len(seed) == 32
    assert new_seed() != seed
    assert seed_sha256(seed) == hashlib.sha256(seed).hexdigest()


def _documented_deal(seed: bytes, seats: int):
    """deal.py's published algorithm, re-implemented independently (R6: anyone can verify)."""

    def stream():
        counter = 0
        while True:
            digest = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            for offset in range(0, 32, 8):
                yield int.from_bytes(digest[offset : offset + 8], "big")
            counter += 1

    values = stream()

    def below(n):
        limit = 2**64 - (2**64 % n)
        while (value := next(values)) >= limit:
            pass
        return value % n

    while True:
        order = [Tile(a, b) for a in range(6, -1, -1) for b in range(a, -1, -1)]
        for i in range(27, 0, -1):
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        dealt = tuple(tuple(order[s * 7 : s * 7 + 7]) for s in range(seats))
        if all(doubles(hand) < 4 for hand in dealt):
            return dealt, tuple(order[seats * 7 :])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r6_a_revealed_seed_lets_anyone_recompute_the_deal(seats):
    for seed in SEEDS[:40]:
        assert deal(CLASSIC, seats, seed) == _documented_deal(seed, seats)


def test_r6_a_record_publishes_the_commitment_and_reveals_the_seed_once_the_hand_ends():
    match = new_match(2, 100, seed=SEEDS[3])
    hand = match_to_record(match)["hands"][0]
    assert hand["seed_sha256"] == hashlib.sha256(SEEDS[3]).hexdigest()
    assert "seed" not in hand
    while not match.hand.is_over:
        match = advance(apply(match, legal_moves(match)[0]) if legal_moves(match) else match)
    hand = match_to_record(match)["hands"][0]
    assert bytes.fromhex(hand["seed"]) == SEEDS[3]
    dealt, stock = deal(CLASSIC, 2, bytes.fromhex(hand["seed"]))
    assert hand["dealt"] == [[str(tile) for tile in seat] for seat in dealt]
    assert hand["stock"] == [str(tile) for tile in stock]


# --- R7-R10 the lead ----------------------------------------------------------------------


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_r7_the_first_hand_is_led_by_the_6_6_holder_with_the_6_6(holder):
    hands = [
        "6-5 5-5 4-4 6-4 6-3 6-2 6-1",
        "6-0 5-4 5-3 5-2 5-1 5-0 3-3",
        "4-3 4-2 4-1 4-0 3-2 3-1 2-2",
        "3-0 2-1 2-0 1-1 1-0 0-0 6-6",
    ]
    hands[holder], hands[3] = hands[3], hands[holder]
    match = table(hands)
    assert (match.hand.leader, match.hand.turn) == (holder, holder)
    assert match.hand.required_lead == T("6-6")
    assert legal_moves(match) == [Play(holder, T("6-6"))]
    assert first_lead(CLASSIC, match.hand.dealt) == (holder, T("6-6"), "R7")


def test_r8_with_6_6_in_the_stock_the_highest_double_held_leads():
    match = table(["6-5 4-4 5-3 4-3 6-1 3-1 0-0", "5-5 6-3 6-2 1-0 4-2 2-1 6-0"], stock="6-6")
    assert match.hand.leader == 1
    assert match.hand.required_lead == T("5-5")
    assert legal_moves(match) == [Play(1, T("5-5"))]
    assert first_lead(CLASSIC, match.hand.dealt)[2] == "R8"


def test_r8_the_stock_s_doubles_are_not_considered():
    """Every double but 0-0 is in the stock (3 seats): the 0-0 holder leads with it."""
    match = table(
        [
            "6-5 6-4 6-3 6-2 6-1 6-0 5-4",
            "5-3 5-2 5-1 5-0 4-3 4-2 4-1",
            "4-0 3-2 3-1 3-0 2-1 2-0 0-0",
        ],
        stock="6-6 5-5 4-4 3-3 2-2 1-1 1-0",
    )
    assert (match.hand.leader, match.hand.required_lead) == (2, T("0-0"))


def test_r9_without_doubles_the_heaviest_tile_leads_and_6_3_beats_5_4():
    match = table(
        ["5-4 6-2 6-1 6-0 5-0 4-0 3-0", "6-3 5-3 5-2 4-3 5-1 4-2 4-1"],
        stock="6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4 3-2 3-1 2-1 2-0 1-0",
    )
    assert (match.hand.leader, match.hand.required_lead) == (1, T("6-3"))
    assert first_lead(CLASSIC, match.hand.dealt)[2] == "R9"


def test_r9_the_heaviest_tile_wins_over_a_lighter_one_with_a_higher_pip():
    match = table(
        ["5-4 6-2 6-1 6-0 5-0 4-0 3-0", "6-5 5-3 5-2 4-3 5-1 4-2 4-1"],
        stock="6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-3 6-4 3-2 3-1 2-1 2-0 1-0",
    )
    assert (match.hand.leader, match.hand.required_lead) == (1, T("6-5"))


def test_r10_later_hands_rotate_the_lead_and_any_tile_may_lead():
    """R10: the seat after the previous leader leads, with any of its tiles, even when
    another seat holds 6-6."""
    finished = case_match("fits_both_ends_with_end")
    assert finished.hand.is_over and finished.hand.leader == 1
    match = table(["5-4 4-4 5-3 4-3 6-1 3-1 0-0", "5-5 6-6 6-2 1-0 4-2 2-1 6-0"], before=finished)
    assert (match.hand.number, match.hand.leader, match.hand.turn) == (1, 0, 0)
    assert match.hand.required_lead is None
    assert sorted(move.tile for move in legal_moves(match)) == sorted(match.hand.holdings[0])
    assert all(move.end is None for move in legal_moves(match))
    led = play(match, 0, "3-1")
    assert led.hand.ends == (3, 1)


def test_r10_the_lead_wraps_around_with_three_seats():
    match = case_match("match_to_100_3_seats", hand=2)
    assert match.hand.leader == 2
    match = case_match("match_to_100_3_seats", hand=3, upto=0)
    assert match.hand.leader == 0


def test_r10_a_redeal_does_not_move_the_lead():
    """A seed whose first shuffle needs a redeal still deals one hand, led by the next seat."""
    seed = next(s for s in SEEDS if any(doubles(_first_shuffle(s)[i : i + 7]) >= 4 for i in (0, 7)))
    finished = case_match("fits_both_ends_with_end")
    match = start_hand(finished, seed=seed)
    assert (len(match.hands), match.hand.leader) == (2, 0)
    assert match.hand.seed == seed
