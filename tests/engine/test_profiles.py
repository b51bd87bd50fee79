"""The rule profiles (docs/profiles.md): each profile's distinctive rules, table-driven,
and a property test of random legal play over every profile."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominoes import (
    IllegalMove,
    Play,
    advance,
    apply,
    forced_action,
    legal_moves,
    match_from_dict,
    match_to_dict,
    match_to_record,
    new_match,
    parse_tile,
    replay_text,
    start_hand,
    view_for,
)
from dominoes.deal import deal, lot_draw, lot_leader
from dominoes.engine import optional_actions
from dominoes.playout import Position, unsupported
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.tiles import full_set, heaviest
from tests.support.profiles import SEED, dealt_as, empty, finish_first_hand, play

# --- the profiles' shapes ----------------------------------------------------------------

SHAPES = [
    # name, seats, tiles each, set size, stock, partnerships, targets
    ("international", 4, 7, 28, 0, True, (200,)),
    ("spain_pairs", 4, 7, 28, 0, True, (150,)),
    ("seven_plus_seven", 4, 7, 28, 0, True, (150,)),
    ("venezuelan", 4, 7, 28, 0, True, (100,)),
    ("two_player", 2, 7, 28, 14, False, (100,)),
    ("three_player", 3, 9, 27, 0, False, (100,)),
    ("cuban", 4, 10, 55, 15, True, (100,)),
    ("first_double", 2, 7, 28, 14, False, (1,)),
    ("first_double", 3, 7, 28, 7, False, (1,)),
    ("first_double", 4, 7, 28, 0, False, (1,)),
]


@pytest.mark.parametrize(("name", "seats", "each", "size", "stock", "pairs", "targets"), SHAPES)
def test_each_profile_deals_its_own_set(name, seats, each, size, stock, pairs, targets):
    rules = PROFILES[name]
    assert len(rules.tile_set()) == size
    dealt, rest = deal(rules, seats, SEED)
    assert [len(hand) for hand in dealt] == [each] * seats
    assert len(rest) == size - each * seats
    assert sorted(t for hand in dealt for t in hand) + [] == sorted(
        set(rules.tile_set()) - set(rest)
    )
    match = new_match(seats, targets[0], seed=SEED, rules=rules)
    assert match.hand.stock_left == (stock if rules.draw_from_stock else len(rest))
    assert rules.partnerships(seats) is pairs
    assert rules.targets == targets


def test_classic_is_unchanged_by_the_new_fields():
    assert CLASSIC == Rules(name="classic")
    assert CLASSIC.tile_set() == full_set(6)
    assert (CLASSIC.later_lead, CLASSIC.blocked_points, CLASSIC.blocked_tie) == (
        "rotate",
        "others",
        "nobody",
    )
    assert not (CLASSIC.draw_optional or CLASSIC.zapato or CLASSIC.single_hand)
    assert CLASSIC.stock_on_block is None and CLASSIC.capicua_multiplier == 1


def test_three_player_plays_without_the_double_blank():
    rules = PROFILES["three_player"]
    assert parse_tile("0-0") not in rules.tile_set()
    with pytest.raises(IllegalMove) as refused:
        start_hand(
            empty(rules, 3),
            dealt=[full_set()[1:10], full_set()[10:19], full_set()[19:28]],
            stock=(),
        )
    assert refused.value.code == "bad_deal"  # 0-0 dealt and 6-6 missing: not the 27 tiles
    match = start_hand(
        empty(rules, 3),
        dealt=[full_set()[0:9], full_set()[9:18], full_set()[18:27]],
        stock=(),
    )
    assert legal_moves(match) == [Play(0, parse_tile("6-6"))]


def test_cuban_reads_double_nine_tiles_in_records():
    match = new_match(4, 100, seed=SEED, rules=PROFILES["cuban"])
    record = match_to_record(match)
    assert any("9" in tile for hand in record["hands"][0]["dealt"] for tile in hand)
    status, answer = replay_text(json.dumps(record))
    assert status == 0 and answer["hands"][0]["end"] == "in_progress"
    record["rules"] = "classic"
    assert replay_text(json.dumps(record))[0] == 2  # 9-x is no double-six tile


# --- the first lead ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["international", "spain_pairs", "seven_plus_seven", "cuban"])
def test_a_lot_drawn_leader_comes_from_the_seed_and_leads_any_tile(name):
    rules = PROFILES[name]
    for n in range(8):
        seed = bytes([n]) * 32
        draws = lot_draw(rules, 4, seed)
        assert len(set(draws)) == 4 and all(t in rules.tile_set() for t in draws)
        leader = lot_leader(rules, 4, seed)
        assert draws[leader] == heaviest(draws)
        match = new_match(4, rules.targets[0], seed=seed, rules=rules)
        assert match.hand.leader == match.hand.turn == leader
        assert match.hand.required_lead is None
        assert len(legal_moves(match)) == len(match.hand.holdings[leader])


def test_the_lot_picks_every_seat_sometimes():
    rules = PROFILES["international"]
    assert {lot_leader(rules, 4, bytes([n]) * 32) for n in range(40)} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("name", "seats", "hands", "leader", "required"),
    [
        ("venezuelan", 4, None, None, "6-6"),
        ("three_player", 3, None, None, "6-6"),
        ("two_player", 2, ["6-5 5-5 4-4 3-0 2-1 1-0 6-0", "6-4 6-3 6-2 6-1 5-4 5-3 5-2"], 0, "5-5"),
    ],
)
def test_the_highest_double_leads_the_first_hand(name, seats, hands, leader, required):
    rules = PROFILES[name]
    match = dealt_as(rules, hands) if hands else new_match(seats, 100, seed=SEED, rules=rules)
    holder = next(s for s, h in enumerate(match.hand.holdings) if parse_tile(required) in h)
    assert match.hand.turn == (leader if leader is not None else holder)
    assert legal_moves(match) == [Play(match.hand.turn, parse_tile(required))]


def test_first_double_leads_any_double_of_the_highest_double_holder():
    rules = PROFILES["first_double"]
    match = dealt_as(rules, ["5-5 2-2 6-4 3-1 0-1 4-2 6-1", "4-4 3-3 6-5 6-3 5-2 2-0 0-0"])
    assert match.hand.turn == 0  # 5-5 is the highest double dealt (6-6 is in the stock)
    assert [str(m.tile) for m in legal_moves(match)] == ["5-5", "2-2"]
    with pytest.raises(IllegalMove) as refused:
        play(match, 0, "6-4")
    assert (refused.value.code, refused.value.rule) == ("wrong_lead", "R7")
    assert play(match, 0, "2-2").hand.ends == (2, 2)


def test_first_double_redeals_a_deal_without_doubles():
    rules = PROFILES["first_double"]
    with pytest.raises(IllegalMove) as refused:
        dealt_as(rules, ["6-5 6-4 6-3 6-2 6-1 6-0 5-4", "5-3 5-2 5-1 5-0 4-3 4-2 4-1"])
    assert refused.value.code == "redeal_required"
    for n in range(20):
        dealt, _ = deal(rules, 2, bytes([n]) * 32)
        assert any(t.is_double for hand in dealt for t in hand)


# --- later leads -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["international", "spain_pairs", "venezuelan", "two_player"])
def test_later_hands_rotate_the_lead(name):
    rules = PROFILES[name]
    seats = rules.seat_counts[0]
    match = finish_first_hand(new_match(seats, rules.targets[0], seed=SEED, rules=rules))
    first = match.hand.leader
    match = start_hand(match, seed=bytes(32))
    assert match.hand.leader == match.hand.turn == (first + 1) % seats
    assert match.hand.lead_seats == ()
    assert match.hand.required_lead is None


def test_cuban_the_winning_pair_leads_with_either_partner():
    rules = PROFILES["cuban"]
    match = finish_first_hand(new_match(4, 100, seed=SEED, rules=rules))
    result = match.hand.result
    match = start_hand(match, seed=bytes(32))
    hand = match.hand
    if result.winners:
        assert set(hand.lead_seats) == set(result.winners)
    else:
        assert set(hand.lead_seats) == {
            (match.hands[0].leader + 1) % 4,
            (match.hands[0].leader + 3) % 4,
        }
    default, partner = hand.lead_seats
    assert hand.turn == default
    assert view_for(match, partner).legal_moves and view_for(match, default).legal_moves
    assert view_for(match, partner).to_dict()["lead_seats"] == [default, partner]
    rivals = [s for s in range(4) if s not in hand.lead_seats]
    with pytest.raises(IllegalMove) as refused:
        apply(match, Play(rivals[0], hand.holdings[rivals[0]][0]))
    assert refused.value.code == "not_your_turn"
    led = apply(match, Play(partner, hand.holdings[partner][0]))
    assert (led.hand.leader, led.hand.turn, led.hand.lead_seats) == (partner, (partner + 1) % 4, ())
    assert "lead_seats" not in view_for(led, partner).to_dict()


# --- the fast path -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_fast_playout_path_plays_every_profile(name):
    rules = PROFILES[name]
    seats = rules.seat_counts[-1]
    match = new_match(seats, rules.targets[0], seed=SEED, rules=rules)
    assert unsupported(rules) is None
    Position.from_match(advance(match))


# --- random legal play over every profile ------------------------------------------------

PROFILE_TABLES = st.sampled_from(
    [(name, seats) for name, rules in sorted(PROFILES.items()) for seats in rules.seat_counts]
)


@settings(
    max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(table=PROFILE_TABLES, seed=st.binary(min_size=32, max_size=32), picks=st.randoms())
def test_random_legal_play_conserves_the_set_and_ends_at_the_target(table, seed, picks):
    name, seats = table
    rules = PROFILES[name]
    match = new_match(seats, rules.targets[0], seed=seed, rules=rules)
    every = sorted(rules.tile_set())
    hands = 0
    while not match.is_over:
        if match.hand.is_over:
            match = start_hand(match, seed=bytes([hands % 256]) + seed[1:])
        hands += 1
        while not match.hand.is_over:
            hand = match.hand
            on_line = [parse_tile(f"{a}-{b}", rules.max_pip) for a, b in hand.line]
            held = [t for h in hand.holdings for t in h]
            assert sorted(on_line + held + list(hand.stock[hand.drawn :])) == every
            forced = forced_action(match)
            if forced is not None:
                match = apply(match, forced)
                continue
            seats_to_act = hand.lead_seats or (hand.turn,)
            actor = picks.choice(seats_to_act)
            choices = legal_moves(match, actor) + (
                optional_actions(match) if actor == hand.turn else []
            )
            assert choices
            match = apply(match, picks.choice(choices))
        assert hands < 400
    assert match_from_dict(match_to_dict(match)) == match
    status, answer = replay_text(json.dumps(match_to_record(match)))
    assert status == 0 and answer["scores"] == list(match.scores)
    if rules.single_hand:
        assert len(match.hands) == 1
        assert answer["winner"] == list(match.hand.result.winners)
    else:
        assert match.winners and all(match.scores[s] >= match.target for s in match.winners)
        losers = [s for s in range(seats) if s not in match.winners]
        assert all(match.scores[s] < match.target for s in losers)
    if rules.zapato:
        assert answer["zapato"] == all(match.scores[s] == 0 for s in losers)


def test_only_seven_plus_seven_has_one_person_hold_two_hands():
    holding_two = {name for name, rules in PROFILES.items() if rules.hands_per_person == 2}
    assert holding_two == {"seven_plus_seven"}
    assert all(rules.hands_per_person in (1, 2) for rules in PROFILES.values())
