"""``replay`` against every profile record in ``tests/cases/<profile>/`` (docs/profiles.md).

Each ``NAME.json`` must give what ``NAME.expected.json`` holds, compared as
``tests/cases/README.md`` says, plus the profile extras (a hand's ``capicua``, the match's
``zapato``) when the expected answer has them. A legal answer is also re-scored here,
independently of ``dominoes.scoring``, from its own counts and the profile's rules.
"""

from __future__ import annotations

import json

import pytest

from dominoes import replay_text
from dominoes.rules import PROFILES
from tests.support.engine import CASES

CASE_FILES = sorted(
    path
    for path in CASES.glob("*/*.json")
    if not path.name.endswith(".expected.json") and path.parent.name in PROFILES
)
HAND_FIELDS = ("end", "winner", "points", "counts", "leader")
ILLEGAL_FIELDS = ("hand", "action", "error", "rule")


def comparable(answer: dict, expected: dict) -> dict:
    if not answer.get("ok"):
        return {"ok": False, **{field: answer[field] for field in ILLEGAL_FIELDS}}
    extras = [f for f in ("capicua",) if expected["hands"] and f in expected["hands"][0]]
    out = {
        "ok": True,
        "hands": [
            {f: hand[f] for f in HAND_FIELDS + tuple(extras) + ("left",) if f in hand}
            for hand in answer["hands"]
        ],
        "scores": answer["scores"],
        "winner": answer["winner"],
    }
    if "zapato" in expected:
        out["zapato"] = answer["zapato"]
    return out


def expected_for(path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def test_every_profile_has_cases_and_a_full_match():
    profiles = {path.parent.name for path in CASE_FILES}
    assert profiles == set(PROFILES) - {"classic"}
    for name in profiles:
        finished = [
            path
            for path in CASE_FILES
            if path.parent.name == name and expected_for(path).get("winner") is not None
        ]
        assert finished, f"{name} has no full-match record"


@pytest.mark.parametrize(
    "path", CASE_FILES, ids=[f"{path.parent.name}/{path.stem}" for path in CASE_FILES]
)
def test_replay_gives_the_expected_answer(path):
    expected = expected_for(path)
    status, answer = replay_text(path.read_text(encoding="utf-8"))
    assert json.loads(path.read_text(encoding="utf-8"))["rules"] == path.parent.name
    assert status == (0 if expected["ok"] else 1)
    assert comparable(answer, expected) == comparable(expected, expected)


def _points(rules, seats: int, hand: dict) -> tuple[list[int], int]:
    """The hand's winners and points recomputed from its counts (not from the engine).

    A seat in the hand's ``left`` (``first_double``: it left and the hand went on) cannot
    win and its count scores for nobody."""
    left = hand.get("left", [])
    counts = [0 if seat in left else count for seat, count in enumerate(hand["counts"])]
    if left:  # alone, no ties among the seats still playing in these cases
        playing = [seat for seat in range(seats) if seat not in left]
        if hand["end"] == "domino":
            winner = next(seat for seat in playing if hand["counts"][seat] == 0)
            return [winner], sum(counts)
        winner = min(playing, key=lambda seat: counts[seat])
        assert sorted(counts[seat] for seat in playing).count(counts[winner]) == 1
        return [winner], sum(counts) - counts[winner]
    pairs = rules.partnerships(seats)

    def side(seat):
        return [s for s in range(seats) if s % 2 == seat % 2] if pairs else [seat]

    if hand["end"] == "domino":
        out = next(s for s in range(seats) if counts[s] == 0 and s in hand["winner"])
        winners = side(out)
        points = (
            sum(counts)
            if rules.partner_tiles_count
            else sum(c for s, c in enumerate(counts) if s not in winners)
        )
        if hand.get("capicua"):
            points *= rules.capicua_multiplier
        return winners, points
    if pairs:
        team = [counts[0] + counts[2], counts[1] + counts[3]]
        if rules.blocked_pairs == "lowest_player":  # cuban: the lowest player's pair
            low_sides = {s % 2 for s in range(seats) if counts[s] == min(counts)}
            tie, winner = len(low_sides) > 1, min(low_sides)
        else:
            tie, winner = team[0] == team[1], 0 if team[0] < team[1] else 1
        if tie:
            if rules.blocked_tie != "leader_team":
                return [], 0
            winner = hand["leader"] % 2
        points = sum(counts) if rules.partner_tiles_count else team[1 - winner]
        return side(winner), points
    low = min(counts)
    if counts.count(low) > 1:
        return hand["winner"], hand["points"]  # R23's tile tie-break: checked by the cases
    winner = counts.index(low)
    if rules.blocked_points == "differences":
        points = sum(c - low for c in counts)
        return ([winner], points) if points else ([], 0)
    return [winner], sum(counts) - low


@pytest.mark.parametrize(
    "path", CASE_FILES, ids=[f"{path.parent.name}/{path.stem}" for path in CASE_FILES]
)
def test_the_expected_points_follow_from_the_counts(path):
    expected = expected_for(path)
    if not expected["ok"]:
        return
    record = json.loads(path.read_text(encoding="utf-8"))
    rules = PROFILES[record["rules"]]
    seats = record["seats"]
    scores = [0] * seats
    for hand in expected["hands"]:
        if hand["end"] == "in_progress":
            continue
        winners, points = _points(rules, seats, hand)
        assert (sorted(winners), points) == (hand["winner"], hand["points"])
        for seat in winners:
            scores[seat] += points
    assert scores == expected["scores"]
    if expected["winner"] is not None and not rules.single_hand:
        assert max(scores) >= record["target"]
        assert all(scores[s] >= record["target"] for s in expected["winner"])
    if rules.single_hand:
        assert len(expected["hands"]) == 1
