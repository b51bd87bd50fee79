"""Properties of whole hands and matches played with random choices (hypothesis).

Each example is a seed (32 bytes, as ``new_seed`` makes), a table size and a stream of
choice indexes that picks among ``legal_moves``; draws and passes are the engine's own
``forced_action`` (R16). Invariants are checked after every single action.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominoes import (
    CLASSIC,
    Draw,
    HandEnd,
    MatchState,
    Pass,
    Play,
    apply,
    forced_action,
    full_set,
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

SEEDS = st.binary(min_size=32, max_size=32)
SEAT_COUNTS = st.sampled_from([2, 3, 4])
CHOICES = st.lists(st.integers(min_value=0, max_value=1_000), min_size=1, max_size=40)
HAND_SETTINGS = settings(
    max_examples=35, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
MATCH_SETTINGS = settings(
    max_examples=20, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
TILE_NAME = re.compile(r"^[0-6]-[0-6]$")

Step = Callable[[MatchState, object, MatchState], None]


class Chooser:
    """Cycles through the drawn choice indexes to pick one of the legal moves."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = choices
        self.n = 0

    def pick(self, moves: list[Play]) -> Play:
        choice = self.choices[self.n % len(self.choices)]
        self.n += 1
        return moves[choice % len(moves)]


def next_action(match: MatchState, chooser: Chooser):
    owed = forced_action(match)
    return owed if owed is not None else chooser.pick(legal_moves(match))


def play_hand(match: MatchState, chooser: Chooser, step: Step | None = None) -> MatchState:
    """Play the current hand to its end, calling ``step(before, action, after)`` each time."""
    while not match.hand.is_over:
        action = next_action(match, chooser)
        after = apply(match, action)
        if step is not None:
            step(match, action, after)
        match = after
    return match


def hand_seed(seed: bytes, number: int) -> bytes:
    return hashlib.sha256(seed + number.to_bytes(4, "big")).digest()


def play_match(seed: bytes, seats: int, choices: list[int], target: int = 100, step=None):
    match = new_match(seats, target, seed=seed)
    chooser = Chooser(choices)
    while True:
        match = play_hand(match, chooser, step)
        if match.is_over:
            return match
        match = start_hand(match, seed=hand_seed(seed, len(match.hands)))


def line_tiles(match: MatchState):
    return [parse_tile(f"{a}-{b}") for a, b in match.hand.line]


# --- invariants checked after every action ---------------------------------------------


def check_conservation(match: MatchState) -> None:
    """R1, R4: holdings + undrawn stock + line are the 28 tiles, each exactly once; the
    line is one chain with two ends (R11, R13)."""
    hand = match.hand
    everything = [tile for held in hand.holdings for tile in held]
    everything += list(hand.stock[hand.drawn :]) + line_tiles(match)
    assert sorted(everything) == sorted(full_set())
    line = hand.line
    assert all(a[1] == b[0] for a, b in zip(line, line[1:], strict=False))
    if line:
        assert hand.ends == (line[0][0], line[-1][1])


def check_moves(match: MatchState) -> None:
    """R14-R16: no legal play iff a draw or pass is owed or the hand is over; every listed
    play applies; plays are distinct and only the seat to act's."""
    moves = legal_moves(match)
    owed = forced_action(match)
    over = match.is_over or match.hand.is_over
    assert (moves == []) == (owed is not None or over)
    assert not (moves and owed is not None)
    assert len(moves) == len(set(moves))
    for move in moves:
        assert move.seat == match.hand.turn
        after = apply(match, move)
        assert move.tile not in after.hand.holdings[move.seat]
    if isinstance(owed, Draw):
        assert owed.tile == match.hand.stock[match.hand.drawn]


def check_round_trip(match: MatchState) -> None:
    data = match_to_dict(match)
    assert match_from_dict(json.loads(json.dumps(data))) == match


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def check_views(match: MatchState) -> None:
    """R31: while a hand is in progress a seat's view names no tile but its own and the
    line's (a previous hand's summary is public, R19), and never the current seed."""
    hand = match.hand
    public = set(line_tiles(match))
    for seat in range(match.seats):
        view = view_for(match, seat).to_dict()
        text = json.dumps(view)
        if hand.seed is not None and not hand.is_over:
            assert hand.seed.hex() not in text
        if hand.is_over:
            summary = view["last_hand"]
            assert summary["number"] == hand.number
            assert summary["holdings"] == [[str(t) for t in held] for held in hand.holdings]
            continue
        previous = view.pop("last_hand")
        if previous is not None:
            assert previous["number"] == hand.number - 1
        named = {parse_tile(s) for s in _strings(view) if TILE_NAME.match(s)}
        assert named <= set(hand.holdings[seat]) | public, (seat, named)
        assert view["tiles"] == [str(t) for t in hand.holdings[seat]]
        assert view["stock_size"] == hand.stock_left
        assert view["tile_counts"] == [len(held) for held in hand.holdings]
        if view["turn"] != seat:
            assert view["legal_moves"] == []


def check_scoring(match: MatchState) -> None:
    """R19-R23 against an independent oracle, whenever a hand has just ended."""
    hand = match.hand
    result = hand.result
    counts = tuple(sum(t.value for t in held) for held in hand.holdings)
    assert result.counts == counts
    seats = match.seats

    def side(seat):
        return tuple(s for s in range(seats) if s % 2 == seat % 2) if seats == 4 else (seat,)

    if result.end is HandEnd.DOMINO:
        (winner,) = [s for s in range(seats) if not hand.holdings[s]]
        assert isinstance(hand.actions[-1], Play) and hand.actions[-1].seat == winner
        assert result.winners == side(winner)
        assert result.points == sum(c for s, c in enumerate(counts) if s not in side(winner))
        return
    assert result.end is HandEnd.BLOCKED
    assert hand.stock_left == 0
    assert not any(t.has(e) for held in hand.holdings for t in held for e in hand.ends), (
        "blocked with a fitting tile"
    )
    if seats == 4:
        a, b = counts[0] + counts[2], counts[1] + counts[3]
        expected = ((), 0) if a == b else (((0, 2), b) if a < b else ((1, 3), a))
    else:
        low = min(counts)
        tied = [s for s in range(seats) if counts[s] == low]
        keys = {s: sorted(t.value for t in hand.holdings[s]) for s in tied}
        best = min(keys.values())
        leaders = [s for s in tied if keys[s] == best]
        if len(leaders) > 1:
            expected = ((), 0)
        else:
            expected = ((leaders[0],), sum(counts) - counts[leaders[0]])
    assert (result.winners, result.points) == expected


def check_everything(before: MatchState, action, after: MatchState) -> None:
    check_conservation(after)
    check_moves(after)
    check_round_trip(after)
    check_views(after)
    if isinstance(action, Draw):
        assert after.hand.turn == action.seat  # the drawer goes on (R14)
    if isinstance(action, Pass):
        assert before.hand.stock_left == 0
    if after.hand.is_over:
        check_scoring(after)


# --- the properties -----------------------------------------------------------------------


@HAND_SETTINGS
@given(seed=SEEDS, seats=SEAT_COUNTS, choices=CHOICES)
def test_every_action_of_a_hand_keeps_the_invariants(seed, seats, choices):
    match = new_match(seats, 100, seed=seed)
    check_conservation(match)
    check_moves(match)
    check_round_trip(match)
    check_views(match)
    match = play_hand(match, Chooser(choices), check_everything)
    assert match.hand.is_over


@MATCH_SETTINGS
@given(seed=SEEDS, seats=SEAT_COUNTS, choices=CHOICES)
def test_a_second_hand_keeps_the_invariants_with_the_first_hand_public(seed, seats, choices):
    match = play_hand(new_match(seats, 100, seed=seed), Chooser(choices))
    if match.is_over:
        return
    match = start_hand(match, seed=hand_seed(seed, 1))
    assert match.hand.leader == (match.hands[0].leader + 1) % seats  # R10
    check_views(match)
    play_hand(match, Chooser(choices[::-1]), check_everything)


@MATCH_SETTINGS
@given(seed=SEEDS, seats=SEAT_COUNTS, choices=CHOICES, target=st.sampled_from(CLASSIC.targets))
def test_a_full_match_ends_with_exactly_one_side_on_the_target(seed, seats, choices, target):
    """R25: scores add up per hand, partners carry the same number, and the match ends as
    soon as one side (and only one) reaches the target."""
    scores = []

    def step(before, action, after):
        check_conservation(after)
        if after.hand.is_over:
            check_scoring(after)
            gained = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
            assert gained == [
                after.hand.result.points if s in after.hand.result.winners else 0
                for s in range(seats)
            ]
            scores.append(after.scores)
            assert after.is_over == (max(after.scores) >= target)

    match = play_match(seed, seats, choices, target, step)
    assert match.outcome.value == "target"
    reached = [s for s in range(seats) if match.scores[s] >= target]
    assert reached and tuple(reached) == match.winners
    if seats == 4:
        assert match.scores[0] == match.scores[2] and match.scores[1] == match.scores[3]
        assert match.winners in ((0, 2), (1, 3))
    else:
        assert len(match.winners) == 1
    assert all(max(s) < target for s in scores[:-1])
    check_round_trip(match)


@MATCH_SETTINGS
@given(seed=SEEDS, seats=SEAT_COUNTS, choices=CHOICES)
def test_a_recorded_match_replays_to_the_same_scores_and_winner(seed, seats, choices):
    match = play_match(seed, seats, choices, target=50)
    status, answer = replay_text(json.dumps(match_to_record(match)))
    assert status == 0, answer
    assert answer["scores"] == list(match.scores)
    assert answer["winner"] == list(match.winners)
    assert [hand["leader"] for hand in answer["hands"]] == [h.leader for h in match.hands]
    assert [
        (hand["end"], hand["winner"], hand["points"], hand["counts"]) for hand in answer["hands"]
    ] == [
        (h.result.end.value, list(h.result.winners), h.result.points, list(h.result.counts))
        for h in match.hands
    ]


@HAND_SETTINGS
@given(seed=SEEDS, seats=SEAT_COUNTS, choices=CHOICES, cut=st.integers(min_value=0))
def test_a_record_of_a_hand_in_progress_replays_to_in_progress(seed, seats, choices, cut):
    match = play_hand(new_match(seats, 100, seed=seed), Chooser(choices))
    record = match_to_record(match)
    actions = record["hands"][0]["actions"]
    record["hands"][0]["actions"] = actions[: cut % len(actions)]
    status, answer = replay_text(json.dumps(record))
    assert status == 0, answer
    assert answer["hands"][0]["end"] == "in_progress"
    assert answer["scores"] == [0] * seats and answer["winner"] is None
