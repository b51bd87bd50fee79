"""Match records (``dominoes-record/1``, RECORD.md): export, load and replay.

A record is plain JSON holding a whole match deal by deal and action by action. ``replay``
checks one against the rules and returns the answer RECORD.md specifies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dominoes.deal import deal, seed_sha256
from dominoes.engine import abandon, apply, start_hand
from dominoes.errors import IllegalMove, UnreadableRecord
from dominoes.rules import PROFILES, Rules
from dominoes.scoring import is_zapato
from dominoes.state import (
    Action,
    HandState,
    MatchState,
    action_from_dict,
    action_to_dict,
)
from dominoes.tiles import Tile, parse_tile

FORMAT = "dominoes-record/1"


def _hand_record(hand: HandState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "dealt": [[str(tile) for tile in tiles] for tiles in hand.dealt],
        "stock": [str(tile) for tile in hand.stock],
    }
    if hand.seed is not None:
        out["seed_sha256"] = seed_sha256(hand.seed)
        if hand.is_over:
            out["seed"] = hand.seed.hex()
    out["actions"] = [action_to_dict(action) for action in hand.actions]
    if hand.departures:
        out["left"] = [{"seat": seat, "after": after} for seat, after in hand.departures]
    return out


def match_to_record(match: MatchState, *, finished_hands_only: bool = False) -> dict[str, Any]:
    """The match as a ``dominoes-record/1`` object (a JSON-ready dict).

    With ``finished_hands_only`` the current hand is left out while it is being played, so
    the record reveals no hidden tile (R31); otherwise every hand is written, the current
    one with its deal, which only the server may see. A seed is written once its hand is over.
    """
    hands = match.hands
    if finished_hands_only and hands and not hands[-1].is_over:
        hands = hands[:-1]
    return {
        "format": FORMAT,
        "rules": match.rules.name,
        "seats": match.seats,
        "target": match.target,
        "hands": [_hand_record(hand) for hand in hands],
    }


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as read from a record: the deal, the actions, the optional seed fields,
    and ``left``: ``(seat, after)`` for each seat that left the hand after ``after`` of its
    actions (``Rules.leavers_sit_out`` profiles only)."""

    dealt: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    actions: tuple[Action, ...]
    seed: bytes | None
    seed_sha256: str | None
    left: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Record:
    """A record as read: profile name, seats, target and hands, nothing checked but shape."""

    rules: str
    seats: int
    target: int
    hands: tuple[HandRecord, ...]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise UnreadableRecord(message)


def load_record(data: Any) -> Record:
    """Read a record from parsed JSON, checking its shape only (not the rules).

    Raises ``UnreadableRecord`` for an unknown format or profile, wrong tile names, a seat
    number out of range, or fields of the wrong type.
    """
    _require(isinstance(data, dict), "a record is a JSON object")
    _require(data.get("format") == FORMAT, f"unknown format {data.get('format')!r}")
    name = data.get("rules", "classic")
    rules = PROFILES.get(name) if isinstance(name, str) else None
    _require(rules is not None, f"unknown rules {name!r}")
    seats, target = data.get("seats"), data.get("target")
    _require(
        isinstance(seats, int) and not isinstance(seats, bool) and seats in rules.seat_counts,
        f"seats must be one of {rules.seat_counts}, not {seats!r}",
    )
    _require(
        isinstance(target, int) and not isinstance(target, bool) and target > 0,
        f"target must be a positive number of points, not {target!r}",
    )
    _require(isinstance(data.get("hands"), list), "hands must be a list")
    hands = []
    for number, hand in enumerate(data["hands"]):
        _require(isinstance(hand, dict), f"hand {number} is not an object")
        dealt, stock = hand.get("dealt"), hand.get("stock", [])
        _require(
            isinstance(dealt, list) and all(isinstance(tiles, list) for tiles in dealt),
            f"hand {number}: dealt must be a list of lists of tiles",
        )
        _require(isinstance(stock, list), f"hand {number}: stock must be a list of tiles")
        actions = hand.get("actions", [])
        _require(isinstance(actions, list), f"hand {number}: actions must be a list")
        parsed_actions = tuple(action_from_dict(action, rules.max_pip) for action in actions)
        for index, action in enumerate(parsed_actions):
            _require(
                0 <= action.seat < seats,
                f"hand {number}, action {index}: no seat {action.seat} at a table of {seats}",
            )
        left = _load_left(hand, number, rules, seats, len(parsed_actions))
        seed = hand.get("seed")
        try:
            seed_bytes = bytes.fromhex(seed) if isinstance(seed, str) else None
        except ValueError as error:
            raise UnreadableRecord(f"hand {number}: seed is not hex") from error
        hands.append(
            HandRecord(
                dealt=tuple(tuple(parse_tile(t, rules.max_pip) for t in tiles) for tiles in dealt),
                stock=tuple(parse_tile(t, rules.max_pip) for t in stock),
                actions=parsed_actions,
                seed=seed_bytes,
                seed_sha256=hand.get("seed_sha256"),
                left=left,
            )
        )
    return Record(rules=rules.name, seats=seats, target=target, hands=tuple(hands))


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _load_left(
    hand: dict, number: int, rules: Rules, seats: int, actions: int
) -> tuple[tuple[int, int], ...]:
    """A hand's ``left`` list (``[{"seat": 1, "after": 6}, ...]``, in the order the seats
    left) as ``(seat, after)`` pairs; only profiles with ``leavers_sit_out`` have one."""
    entries = hand.get("left", [])
    _require(isinstance(entries, list), f"hand {number}: left must be a list")
    _require(
        not entries or rules.leavers_sit_out,
        f"hand {number}: {rules.name} has no leaving mid-hand (left)",
    )
    out: list[tuple[int, int]] = []
    for entry in entries:
        _require(
            isinstance(entry, dict)
            and _is_count(entry.get("seat"))
            and _is_count(entry.get("after"))
            and 0 <= entry["seat"] < seats
            and (out[-1][1] if out else 0) <= entry["after"] <= actions,
            f"hand {number}: a left entry is {{seat, after}} in order, not {entry!r}",
        )
        out.append((entry["seat"], entry["after"]))
    return tuple(out)


def _refusal(hand: int, action: int | None, error: IllegalMove) -> dict[str, Any]:
    return {
        "ok": False,
        "hand": hand,
        "action": action,
        "error": error.code,
        "rule": error.rule,
        "message": error.message,
    }


def check_seed(rules: Rules, seats: int, hand: HandRecord) -> None:
    """The fair-shuffle check (R6): a revealed ``seed`` must hash to the published
    ``seed_sha256`` and must deal exactly the recorded ``dealt`` and ``stock``. Raises
    ``IllegalMove`` (``bad_deal``, R6) otherwise; a hand without a seed is not checked."""
    if hand.seed is None:
        return
    if hand.seed_sha256 is not None and hand.seed_sha256 != seed_sha256(hand.seed):
        raise IllegalMove("bad_deal", "the seed does not hash to the published seed_sha256", "R6")
    if deal(rules, seats, hand.seed) != (hand.dealt, hand.stock):
        raise IllegalMove("bad_deal", "the seed does not deal the recorded tiles", "R6")


def replay_match(record: Record) -> tuple[MatchState | None, dict[str, Any]]:
    """Play a loaded record through the engine.

    Returns ``(match, answer)``: the match state reached (``None`` when no hand could be
    dealt) and the answer of RECORD.md (``{"ok": true, "hands", "scores", "winner"}`` or
    ``{"ok": false, "hand", "action", "error", "rule", "message"}`` for the first fault).
    """
    rules = PROFILES[record.rules]
    match = MatchState(
        rules=rules,
        seats=record.seats,
        target=record.target,
        scores=(0,) * record.seats,
        hands=(),
    )
    unknown_leader: set[int] = set()
    for number, hand in enumerate(record.hands):
        leader = None
        if number == 0 and rules.first_lead == "lot" and hand.seed is None:
            # drawn by lot, but no seed to redraw it from: the first action's seat led
            if hand.actions:
                leader = hand.actions[0].seat
            else:
                unknown_leader.add(number)
        try:
            check_seed(rules, record.seats, hand)
            match = start_hand(
                match, seed=hand.seed, dealt=hand.dealt, stock=hand.stock, leader=leader
            )
        except IllegalMove as error:
            return (match if match.hands else None), _refusal(number, None, error)
        for index in range(len(hand.actions) + 1):
            try:
                match = recorded_step(match, hand.actions, hand.left, index)
            except IllegalMove as error:
                return match, _refusal(number, index, error)
    return (match if match.hands else None), summarize(match, unknown_leader)


def recorded_step(
    match: MatchState,
    actions: Sequence[Action],
    left: Iterable[Sequence[int]],
    index: int,
) -> MatchState:
    """Step ``index`` (``0..len(actions)``) of replaying a hand's log from ``match``: each
    seat of ``left`` (``(seat, after)`` pairs, ``leavers_sit_out``) whose ``after`` is
    ``index`` leaves the hand (``abandon``, R26), then ``actions[index]`` is applied when
    there is one. Steps ``0..len(actions)`` in order replay the whole hand, leavers
    included. Raises ``IllegalMove`` for a step the rules refuse."""
    for seat, after in left:
        if after == index:
            match = abandon(match, seat)
    if index < len(actions):
        match = apply(match, actions[index])
    return match


def summarize(match: MatchState, unknown_leader: set[int] | frozenset = frozenset()) -> dict:
    """The legal-record answer of RECORD.md for ``match``: each hand's end, winner, points,
    counts and leader, then the scoreboard and the match winner (``None`` while it is on).

    Profile extras, present only for the profiles that have them (classic answers are
    unchanged): each hand's ``capicua`` (``rules.capicua_multiplier``), the top-level
    ``zapato`` (``rules.zapato``; ``null`` while the match is on), each hand's ``left``
    (the seats that left it, ``rules.leavers_sit_out``, only when one did). A hand in
    ``unknown_leader`` (drawn by lot, no seed, no action yet) reports ``leader: null``."""
    rules = match.rules
    hands = []
    for hand in match.hands:
        result = hand.result
        entry = {
            "end": result.end.value if result else "in_progress",
            "winner": list(result.winners) if result else [],
            "points": result.points if result else 0,
            "counts": list(result.counts) if result else None,
            "leader": None if hand.number in unknown_leader else hand.leader,
        }
        if rules.capicua_multiplier != 1:
            entry["capicua"] = bool(result and result.capicua)
        if hand.departures:
            entry["left"] = list(hand.out_seats)
        hands.append(entry)
    answer = {
        "ok": True,
        "hands": hands,
        "scores": list(match.scores),
        "winner": list(match.winners) if match.winners is not None else None,
    }
    if rules.zapato:
        answer["zapato"] = is_zapato(match)
    return answer


def replay_text(text: str) -> tuple[int, dict[str, Any]]:
    """Replay a record given as JSON text: ``(exit status, answer)``.

    Exit status 0 for a legal record, 1 for an illegal one, 2 for an unreadable one (then
    the answer is ``{"ok": false, "error": "unreadable", "message": ...}``).
    """
    try:
        record = load_record(json.loads(text))
    except (json.JSONDecodeError, UnreadableRecord) as error:
        return 2, {"ok": False, "error": "unreadable", "message": str(error)}
    _, answer = replay_match(record)
    return (0 if answer["ok"] else 1), answer
