"""Property: a finished hand's reason (``dominoes.reason.HandReason``, given by
``dominoes.scoring`` with the result it decides) agrees with the points awarded.

Hypothesis draws a profile and one of its table sizes, a deal seed, a first or a later
hand, random choices and, where leavers sit out, a seat that leaves at a random step. The
engine plays the hand out; its reason must name how it ended, the rule that decided, the
counts compared, who scored and numbers that add up to the points the scoreboard gained.
Every case record of ``tests/cases`` (every kind of end the profiles have) is checked
the same way, and a result read back from storage gets the same reason again.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominoes import load_record, replay_match
from dominoes.engine import advance, apply, legal_moves, new_match, optional_actions, start_hand
from dominoes.leaving import abandon
from dominoes.reason import DECIDED_BY, HandReason
from dominoes.rules import PROFILES, Rules
from dominoes.scoring import counts_of, explain, pair_totals, reason_of
from dominoes.state import HandEnd, HandState, hand_from_dict, hand_to_dict
from tests.support.engine import CASES
from tests.support.playout import PROFILE_TABLES


def check_reason(rules: Rules, hand: HandState, gained: tuple[int, ...] | None = None) -> None:
    """``hand``'s result and its reason agree (R17-R24); ``gained``: what each seat's score
    went up by at the hand's end, when known."""
    result = hand.result
    assert result is not None
    reason = result.reason
    assert isinstance(reason, HandReason)
    seats = len(hand.holdings)
    counts = counts_of(hand.holdings)
    assert (reason.end, reason.winners, reason.points, reason.counts) == (
        result.end.value,
        result.winners,
        result.points,
        counts,
    )
    assert reason.decided_by in DECIDED_BY
    ids = reason.rules
    assert ids[:2] == ("R17" if result.end is HandEnd.DOMINO else "R18", "R19")
    assert reason.rule in ids and (("R24" in ids) == (not result.winners))
    if result.winners:
        assert sum(reason.addends) * (reason.multiplier or 1) == result.points
        if reason.differences:
            assert reason.addends == tuple(counts[s] - reason.lowest for s in reason.scored_seats)
        else:
            assert reason.addends == tuple(counts[s] for s in reason.scored_seats)
        assert not set(reason.scored_seats) & set(hand.out_seats)
    else:
        assert (result.points, reason.decided_by, reason.addends) == (0, "nobody", ())
    if gained is not None:
        assert gained == tuple(result.points if s in result.winners else 0 for s in range(seats))
    pairs = rules.partnerships(seats)
    if pairs:
        assert reason.team_counts == pair_totals(rules, counts)
    if result.end is HandEnd.DOMINO:
        check_domino(rules, hand, reason)
    elif pairs:
        check_blocked_pairs(rules, hand, reason)
    else:
        check_blocked_alone(hand, reason)
    stored = hand_from_dict(json.loads(json.dumps(hand_to_dict(hand))), rules.max_pip)
    assert stored.result.reason is None
    again = reason_of(rules, stored.holdings, stored.result, stored.leader, stored.out_seats)
    assert again == reason
    assert explain(rules, hand.holdings, result) == reason.to_dict()


def check_domino(rules: Rules, hand: HandState, reason: HandReason) -> None:
    """A domino (R17, R20): the seat that went out and its side score their rivals."""
    seats = len(hand.holdings)
    out = reason.went_out
    assert reason.rule == "R20" and reason.decided_by == "domino"
    assert hand.holdings[out] == () and out in reason.winners
    side = rules.team_of(out, seats)
    pair = tuple(s for s in range(seats) if rules.team_of(s, seats) == side)
    assert reason.winners == (pair if rules.partnerships(seats) else (out,))
    if rules.partner_tiles_count:
        assert reason.scored == "everyone" and reason.uncounted_partner is None
    else:
        assert not set(reason.scored_seats) & set(reason.winners)
        assert reason.uncounted_partner == next((s for s in reason.winners if s != out), None)
    assert (reason.multiplier is not None) == hand.result.capicua


def check_blocked_pairs(rules: Rules, hand: HandState, reason: HandReason) -> None:
    """A blocked hand between pairs (R22): the pair the profile's comparison names."""
    seats = len(hand.holdings)
    counts = reason.counts
    a, b = reason.team_counts
    assert reason.rule == "R22" and reason.lowest == min(counts)
    side = rules.team_of(reason.winners[0], seats) if reason.winners else None
    if reason.decided_by == "lower_pair_total":
        assert (a, b)[side] < (a, b)[1 - side]
    elif reason.decided_by == "lowest_player":
        assert counts[reason.lowest_seat] == min(counts) and reason.lowest_seat in reason.winners
        assert all(
            rules.team_of(s, seats) == side for s in range(seats) if counts[s] == min(counts)
        )
    elif reason.decided_by == "pair_that_led":
        assert hand.leader in reason.winners
    if reason.winners and not rules.partner_tiles_count:
        assert reason.points == (a, b)[1 - side]


def check_blocked_alone(hand: HandState, reason: HandReason) -> None:
    """A blocked hand alone (R21, R23): the lowest count, ties broken tile by tile."""
    counts = reason.counts
    playing = [s for s in range(len(counts)) if s not in hand.out_seats]
    assert reason.lowest == min(counts[s] for s in playing)
    tied = tuple(s for s in playing if counts[s] == reason.lowest)
    assert reason.rule == ("R23" if len(tied) > 1 else "R21")
    assert reason.tied == (tied if len(tied) > 1 else ())
    for seat, values in reason.tie_break:
        assert values == tuple(sorted(t.high + t.low for t in hand.holdings[seat]))
    if reason.winners:
        assert reason.lowest_seat == reason.winners[0] and reason.winners[0] in tied
        if len(tied) > 1:
            best = dict(reason.tie_break)[reason.lowest_seat]
            assert all(values > best for s, values in reason.tie_break if s != reason.lowest_seat)


def play_out(match, rng: random.Random, leave_at: int | None, leaver: int):
    """``match`` with its hand played to the end by random choices (``leaver`` leaving
    after ``leave_at`` actions where leavers sit out), and what each score gained."""
    before = match.scores
    step = 0
    while not match.hand.is_over and not match.is_over:
        if step == leave_at and leaver not in match.hand.out_seats:
            match = advance(abandon(match, leaver))
            continue
        actions = legal_moves(match) or list(optional_actions(match))
        match = advance(apply(match, actions[rng.randrange(len(actions))]))
        step += 1
    gained = tuple(after - was for after, was in zip(match.scores, before, strict=True))
    return match, gained


@settings(max_examples=300, deadline=None)
@given(
    table=st.sampled_from(PROFILE_TABLES),
    seed=st.binary(min_size=1, max_size=8),
    later=st.booleans(),
    choices=st.integers(0, 2**32),
    leave_at=st.none() | st.integers(0, 30),
    leaver=st.integers(0, 3),
)
def test_the_reason_agrees_with_the_points_awarded(
    table: tuple[str, int], seed: bytes, later: bool, choices: int, leave_at, leaver: int
) -> None:
    name, seats = table
    rules = PROFILES[name]
    if not rules.leavers_sit_out:
        leave_at = None
    match = new_match(seats, rules.targets[0], seed=seed, rules=rules)
    rng = random.Random(choices)
    if later:
        match, _ = play_out(match, rng, None, 0)
        if match.is_over:
            return
        match = start_hand(match, seed=b"later-" + seed)
    match, gained = play_out(match, rng, leave_at, leaver % seats)
    if match.hand.result is None:  # one player left: the match ended with the hand unfinished
        return
    check_reason(rules, match.hand, gained)


@pytest.mark.parametrize(
    "path",
    sorted(p for p in CASES.rglob("*.json") if not p.name.endswith(".expected.json")),
    ids=lambda p: str(p.relative_to(CASES)),
)
def test_every_case_records_finished_hands_say_why(path) -> None:
    record = load_record(json.loads(path.read_text(encoding="utf-8")))
    match, answer = replay_match(record)
    if not answer.get("ok"):
        return  # an illegal record: its refusal is tested by the engine's case table
    for hand in match.hands:
        if hand.result is not None:
            check_reason(match.rules, hand)
