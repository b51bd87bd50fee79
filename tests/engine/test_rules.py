"""One group of tests per rule of RULES.md (R1-R26, R28) that the engine implements.

Positions are built through the public API: explicit deals via ``start_hand(match,
dealt=..., stock=...)`` (``tests.support.engine.table``), or the replay cases in
``tests/cases`` played up to a given action (``tests.support.engine.case_match``).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from dominoes import (
    CLASSIC,
    Draw,
    HandEnd,
    IllegalMove,
    MatchOutcome,
    Pass,
    Play,
    Tile,
    abandon,
    advance,
    apply,
    close_idle,
    deal,
    forced_action,
    full_set,
    legal_moves,
    match_to_record,
    new_match,
    new_seed,
    parse_tile,
    play_turn,
    seed_sha256,
    start_hand,
)
from dominoes.deal import SeedStream
from dominoes.engine import check_deal, first_lead
from dominoes.scoring import score_blocked, score_domino
from tests.support.engine import (
    BLOCK_PLAYS,
    BLOCK_TEAM_A_LOWER,
    BLOCK_TIED,
    T,
    case,
    case_match,
    deal_of,
    empty_match,
    line_tiles,
    play,
    play_block,
    table,
    tiles,
)

SEEDS = [hashlib.sha256(str(n).encode()).digest() for n in range(300)]


def doubles(hand) -> int:
    return sum(1 for tile in hand if tile.is_double)


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


# --- R11-R13 placing tiles ----------------------------------------------------------------

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
