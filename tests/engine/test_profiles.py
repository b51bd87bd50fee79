"""The rule profiles (docs/profiles.md): each profile's distinctive rules, table-driven,
and a property test of random legal play over every profile."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominoes import (
    Draw,
    IllegalMove,
    MatchState,
    Pass,
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
from dominoes.state import MatchOutcome
from dominoes.tiles import full_set, heaviest

SEED = bytes(range(32))


def tiles(names: str, max_pip: int = 6):
    return tuple(parse_tile(name, max_pip) for name in names.split())


def empty(rules: Rules, seats: int, target: int | None = None) -> MatchState:
    target = target if target is not None else rules.targets[0]
    return MatchState(rules=rules, seats=seats, target=target, scores=(0,) * seats, hands=())


def dealt_as(rules: Rules, hands: list[str], stock: str = "", **kwargs) -> MatchState:
    """A match of ``rules`` whose first hand is dealt as given; the rest of the profile's
    set goes under ``stock`` (in the stock when the profile draws, else simply out)."""
    dealt = tuple(tiles(hand, rules.max_pip) for hand in hands)
    top = tiles(stock, rules.max_pip) if stock else ()
    used = {tile for hand in dealt for tile in hand} | set(top)
    rest = top + tuple(tile for tile in rules.tile_set() if tile not in used)
    return start_hand(empty(rules, len(hands)), dealt=dealt, stock=rest, **kwargs)


def play(match, seat, name, end=None):
    return apply(match, Play(seat, parse_tile(name, match.rules.max_pip), end))


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


def _finish_first_hand(match, chooser=lambda moves: moves[0]):
    while not match.hand.is_over:
        match = advance(match)
        if match.hand.is_over:
            break
        match = apply(match, chooser(legal_moves(match) + optional_actions(match)))
    return match


@pytest.mark.parametrize("name", ["international", "spain_pairs", "venezuelan", "two_player"])
def test_later_hands_rotate_the_lead(name):
    rules = PROFILES[name]
    seats = rules.seat_counts[0]
    match = _finish_first_hand(new_match(seats, rules.targets[0], seed=SEED, rules=rules))
    first = match.hand.leader
    match = start_hand(match, seed=bytes(32))
    assert match.hand.leader == match.hand.turn == (first + 1) % seats
    assert match.hand.lead_seats == ()
    assert match.hand.required_lead is None


def test_cuban_the_winning_pair_leads_with_either_partner():
    rules = PROFILES["cuban"]
    match = _finish_first_hand(new_match(4, 100, seed=SEED, rules=rules))
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


# --- optional drawing (first_double) ------------------------------------------------------


def test_first_double_drawing_and_passing_are_the_seats_choice():
    rules = PROFILES["first_double"]
    match = dealt_as(rules, ["6-6 5-4 4-3 3-2 2-1 1-0 5-0", "6-5 5-5 4-4 3-1 2-0 4-1 3-0"], "6-4")
    match = play(match, 0, "6-6")
    # seat 1 holds 6-5: it must play
    assert optional_actions(match) == [] and legal_moves(match) == [Play(1, parse_tile("6-5"), 6)]
    match = play(match, 1, "6-5", 6)
    # seat 0: 5-4 and 5-0 fit; play 5-4 -> ends (6, 4)
    match = play(match, 0, "5-4", 5)
    assert match.hand.ends == (6, 4)
    # seat 1 holds 4-4 and 4-1: plays 4-4 -> ends stay (6, 4)
    match = play(match, 1, "4-4", 4)
    # seat 0: 4-3 fits
    match = play(match, 0, "4-3", 4)
    assert match.hand.ends == (6, 3)
    # seat 1: 3-1 and 3-0 fit -> plays 3-1 -> ends (6, 1)
    match = play(match, 1, "3-1", 3)
    # seat 0: 2-1, 1-0 fit -> plays 1-0 -> ends (6, 0)
    match = play(match, 0, "1-0", 1)
    # seat 1: 2-0, 3-0 fit -> plays 2-0 -> ends (6, 2)
    match = play(match, 1, "2-0", 0)
    # seat 0: 3-2, 2-1 fit -> plays 3-2 -> ends (6, 3)
    match = play(match, 0, "3-2", 2)
    # seat 1: 3-0 fits -> ends (6, 0)
    match = play(match, 1, "3-0", 3)
    # seat 0 holds 2-1 and 5-0: 5-0 fits the 0 end; play 5-0 -> ends (6, 5)
    match = play(match, 0, "5-0", 0)
    # seat 1 holds 5-5, 4-1: 5-5 fits
    match = play(match, 1, "5-5", 5)
    # seat 0 holds 2-1 only, ends (6, 5): no fit, stock not empty: a choice
    assert legal_moves(match) == [] and forced_action(match) is None
    top = match.hand.stock[match.hand.drawn]
    assert top == parse_tile("6-4")
    assert optional_actions(match) == [Draw(0, top), Pass(0)]
    view = view_for(match, 0)
    assert view.choices == ("draw", "pass") and view.to_dict()["choices"] == ["draw", "pass"]
    assert view_for(match, 1).to_dict()["choices"] == []
    assert advance(match) is match  # nothing automatic
    passed = apply(match, Pass(0))  # allowed with tiles in the stock (no must_draw)
    assert passed.hand.turn == 1 and passed.hand.stock_left == match.hand.stock_left
    drew = apply(match, Draw(0, top))
    assert legal_moves(drew) == [Play(0, top, 6)]  # the drawn 6-4 fits: it must be played
    with pytest.raises(IllegalMove) as refused:
        apply(drew, Pass(0))
    assert refused.value.code == "cannot_pass_with_play"
    with pytest.raises(IllegalMove) as refused:
        apply(play(drew, 0, "6-4", 6), Draw(1, drew.hand.stock[drew.hand.drawn]))
    assert refused.value.code == "cannot_draw_with_play"  # seat 1's 4-1 fits the 4 end


def test_first_double_a_round_of_passes_blocks_and_one_hand_ends_the_match():
    rules = PROFILES["first_double"]
    match = dealt_as(rules, ["6-6 1-0 2-0 3-0 4-0 5-0 0-0", "5-5 1-1 2-1 3-1 4-1 5-1 2-2"], "3-3")
    match = play(match, 0, "6-6")
    assert optional_actions(match) == [Draw(1, parse_tile("3-3")), Pass(1)]
    match = apply(match, Pass(1))
    match = apply(match, Pass(0))
    assert match.hand.is_over and match.hand.result.end == "blocked"
    # counts: seat 0 = 1+2+3+4+5+0 = 15, seat 1 = 10+2+3+4+5+6+4 = 34: seat 0 scores 34
    assert match.hand.result.counts == (15, 34)
    assert (match.hand.result.winners, match.hand.result.points) == ((0,), 34)
    assert match.is_over and match.winners == (0,) and match.outcome is MatchOutcome.TARGET
    with pytest.raises(IllegalMove) as refused:
        start_hand(match)
    assert refused.value.code == "hand_over"


def test_first_double_four_seats_play_alone():
    rules = PROFILES["first_double"]
    assert not rules.partnerships(4)
    match = new_match(4, 1, seed=SEED, rules=rules)
    match = _finish_first_hand(match)
    assert match.is_over and len(match.winners) <= 1


# --- scoring -----------------------------------------------------------------------------


def _domino_match(name: str, seed_index: int = 0):
    rules = PROFILES[name]
    for n in range(seed_index, seed_index + 200):
        match = _finish_first_hand(
            new_match(4, rules.targets[0], seed=bytes([n]) * 32, rules=rules)
        )
        if match.hand.result.end == "domino":
            return match
    raise AssertionError("no domino found")


@pytest.mark.parametrize(
    ("name", "partner_counts"),
    [("international", True), ("spain_pairs", True), ("venezuelan", False), ("cuban", False)],
)
def test_who_scores_the_partners_tiles_on_a_domino(name, partner_counts):
    match = _domino_match(name)
    result = match.hand.result
    rivals = sum(c for s, c in enumerate(result.counts) if s not in result.winners)
    multiplier = 2 if result.capicua else 1
    expected = sum(result.counts) if partner_counts else rivals
    assert result.points == expected * multiplier


def test_two_player_closing_gives_the_stock_to_the_rival_and_scores_the_difference():
    """tests/cases/two_player/closed_with_stock_left: seat 0 plays 4-4 on the 4 end, the
    ends read (4, 4) and all seven fours are down, while 5-2 and 3-1 are still in the
    stock. The hand is closed at once; seat 1 (the closer's rival) takes 5-2 and 3-1:
    seat 0 holds 2-2 (4), seat 1 5-5 5-1 3-2 1-1 + 5-2 3-1 (10+6+5+2+7+4 = 34)."""
    from dominoes.record import load_record, replay_match

    text = open("tests/cases/two_player/closed_with_stock_left.json", encoding="utf-8").read()
    match, answer = replay_match(load_record(json.loads(text)))
    hand = match.hand
    assert hand.ends == (4, 4) and hand.actions[-1] == Play(0, parse_tile("4-4"), 4)
    assert hand.stock_left == 0 and len(hand.stock) - 2 == sum(
        isinstance(a, Draw) for a in hand.actions
    )
    assert set(tiles("5-2 3-1")) <= set(hand.holdings[1])
    assert hand.result.counts == (4, 34)
    assert (hand.result.winners, hand.result.points) == ((0,), 30)
    classic = replace(match, rules=CLASSIC)  # classic would have drawn on, not closed
    assert classic.rules.stock_on_block is None


def test_two_player_equal_counts_on_a_block_score_nothing():
    from dominoes.scoring import score_blocked

    rules = PROFILES["two_player"]
    result = score_blocked(rules, [tiles("6-1 3-3"), tiles("5-5 3-0")])
    assert (result.winners, result.points) == ((), 0)


@pytest.mark.parametrize(
    ("name", "holdings", "winners", "points"),
    [
        ("three_player", ["6-1", "5-5", "2-1"], (2,), (7 - 3) + (10 - 3)),
        ("classic", ["6-1", "5-5", "2-1"], (2,), 7 + 10),
        ("two_player", ["6-1 3-3", "5-5"], (1,), 13 - 10),
    ],
)
def test_blocked_points_by_differences(name, holdings, winners, points):
    from dominoes.scoring import score_blocked

    result = score_blocked(PROFILES[name], [tiles(h) for h in holdings])
    assert (result.winners, result.points) == (winners, points)


@pytest.mark.parametrize(
    ("name", "winners", "points"),
    [("spain_pairs", (1, 3), 18), ("international", (), 0), ("venezuelan", (), 0)],
)
def test_a_tied_block_between_pairs(name, winners, points):
    """Teams 5+4 = 9 and 5+4 = 9, seat 3 led: the Spanish pair that led wins it all."""
    from dominoes.scoring import score_blocked

    holdings = [tiles("3-2"), tiles("4-1"), tiles("2-2"), tiles("3-1")]
    result = score_blocked(PROFILES[name], holdings, leader=3)
    assert (result.winners, result.points) == (winners, points)


def test_cuban_capicua_doubles_the_points_only_for_a_non_double_on_two_different_ends():
    from dominoes.scoring import score_domino

    rules = PROFILES["cuban"]
    holdings = [(), tiles("9-9", 9), tiles("1-0", 9), tiles("2-2", 9)]
    plain = score_domino(rules, holdings, 0)
    double = score_domino(rules, holdings, 0, capicua=True)
    assert (plain.points, plain.capicua) == (18 + 4, False)
    assert (double.points, double.capicua) == (2 * (18 + 4), True)
    assert score_domino(PROFILES["venezuelan"], holdings, 0, capicua=True).points == 22
    # end to end: the last tile 8-7 on ends (8, 7) is a capicúa; 8-8 on (8, 8) is not
    path = "tests/cases/cuban/capicua_scores_double.json"
    status, answer = replay_text(open(path, encoding="utf-8").read())
    assert status == 0 and answer["hands"][0]["capicua"] is True


def test_zapato_marks_a_match_the_losers_lost_without_a_point():
    from dominoes.scoring import is_zapato

    rules = PROFILES["international"]
    over = replace(
        empty(rules, 4),
        scores=(200, 0, 200, 0),
        winners=(0, 2),
        outcome=MatchOutcome.TARGET,
        hands=new_match(4, 200, seed=SEED, rules=rules).hands,
    )
    assert is_zapato(over) is True
    assert is_zapato(replace(over, scores=(200, 5, 200, 5))) is False
    assert is_zapato(replace(over, winners=None, outcome=None)) is None
    assert is_zapato(replace(over, rules=CLASSIC)) is None
    assert view_for(over, 1).to_dict()["zapato"] is True
    assert "zapato" not in view_for(replace(over, rules=CLASSIC), 1).to_dict()


def test_classic_answers_and_views_have_no_profile_keys():
    match = new_match(4, 100, seed=SEED)
    view = view_for(match, match.hand.turn).to_dict()
    assert not {"choices", "lead_seats", "zapato"} & set(view)
    status, answer = replay_text(json.dumps(match_to_record(match)))
    assert set(answer) == {"ok", "hands", "scores", "winner"}
    assert "lead_seats" not in match_to_dict(match)["hands"][0]


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
