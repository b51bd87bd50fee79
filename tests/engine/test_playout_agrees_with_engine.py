"""The fast playout path (``dominoes.playout``) agrees with the engine, move for move.

For many seeds, every profile of ``dominoes.rules`` and each of its table sizes, the same
random choices are played through ``Position`` and through ``dominoes.engine``
(``legal_moves``/``optional_actions``/``apply``/``advance``); the legal plays (tile/end
pairs) and the draw-or-pass choices (``draw_optional``) must match at every step, and so
must the hand's end, winners, points, counts and capicúa (R11-R24 and the profiles'
fields). Pure engine code: no database, no Django."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominoes.engine import (
    abandon,
    advance,
    apply,
    new_match,
    start_hand,
)
from dominoes.playout import (
    Position,
    random_playout,
    unsupported,
)
from dominoes.rules import CLASSIC, PROFILES, Rules
from dominoes.state import Draw, HandEnd, MatchState, Play
from tests.support.playout import (
    NO_STOCK_ANY_LEAD,
    PARTNER_TILES,
    PROFILE_TABLES,
    engine_actions,
    play_both,
    replay_through_engine,
)


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
