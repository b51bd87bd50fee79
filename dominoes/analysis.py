"""The analysis of a finished match: every choice a seat made, judged from
that seat's view at the time (R31: its own tiles and the public log, never a hidden tile).

For each play of an analysed seat the match is rebuilt from its record with the engine
(``start_hand``/``apply``, as ``dominoes.steps`` does), the seat's ``view_for`` is taken
just before the play, and an estimator (Abuela Quelonia's ``estimate``: her chance of
winning the hand and her expected points for every legal move, from sampled deals of the
hidden tiles) scores the move played and each alternative. Forced moves are not judged:
a seat with one legal play, a draw, a pass.

The loss of a move is measured against the best move, the one with the highest chance of
winning the hand (ties: the most expected points): ``hand_win_chance`` lost (0-1) and
``expected_points`` lost (points, can be negative when the played move scores more on
average but wins less often). A move is marked at the highest level whose threshold
either loss reaches (``THRESHOLDS``):

- ``inaccuracy`` ("imprecisión"): 5 points of win chance, or 3 expected points;
- ``error``: 10 points of win chance, or 6 expected points;
- ``blunder`` ("error grave"): 20 points of win chance, or 12 expected points.

Deterministic: each judged move's random generator is seeded with the SHA-256 of what
the seat saw then (its tiles, the public log, the scores, its legal moves) and the move's
place in the record, so two records that agree on everything the seat saw give it the
same analysis whatever the hidden tiles were. No Django here.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dominoes.bots.quelonia import MoveEstimate, Quelonia
from dominoes.engine import apply, legal_moves, start_hand
from dominoes.leaving import abandon
from dominoes.record import Record, check_seed
from dominoes.rules import PROFILES
from dominoes.state import MatchState, Play
from dominoes.view import SeatView, view_for

FORMAT = "dominoes-analysis/1"
#: Quelonia's simulations (sampled deal x legal move) per judged move in production:
#: ``None`` for her playing budget at the match's table (``Quelonia.budget``: 2000 at
#: double-six, 3000 alone against two, 4000 at double-nine); no clock (the time guard is
#: off), so the analysis is the same on a loaded machine.
ROLLOUTS: int | None = None
#: ``(level, hand win chance lost (0-1), expected points lost)``, mildest first.
THRESHOLDS: tuple[tuple[str, float, float], ...] = (
    ("inaccuracy", 0.05, 3.0),
    ("error", 0.10, 6.0),
    ("blunder", 0.20, 12.0),
)
#: A move's estimate: ``(view, rng) -> one MoveEstimate per legal move, in order``.
Estimator = Callable[[SeatView, random.Random], Sequence[MoveEstimate]]


def quelonia_estimator(rollouts: int | None = ROLLOUTS) -> Estimator:
    """Abuela Quelonia's ``estimate`` with ``rollouts`` simulations a move (``None``: her
    playing budget at the table, ``Quelonia.budget``) and no time guard (an infinite budget:
    only the simulation count stops her)."""
    return Quelonia(rollouts=rollouts, time_budget=float("inf")).estimate


@dataclass(frozen=True, slots=True)
class Position:
    """A play to judge: hand ``hand`` (0-based), action ``action`` (index into that
    hand's ``actions``), the seat's ``view`` just before it and the ``played`` move."""

    hand: int
    action: int
    view: SeatView
    played: Play


def _first_match(record: Record) -> MatchState:
    rules = PROFILES[record.rules]
    return MatchState(
        rules=rules, seats=record.seats, target=record.target, scores=(0,) * record.seats, hands=()
    )


def positions(record: Record, seats: Iterable[int]) -> tuple[list[Position], dict[int, int]]:
    """The plays of ``seats`` to judge in ``record``, in record order, and how many forced
    actions (one legal play, a draw, a pass) each of those seats made. Raises
    ``IllegalMove`` for a record the rules refuse (as ``replay_steps``)."""
    wanted = set(seats)
    forced = dict.fromkeys(sorted(wanted), 0)
    found: list[Position] = []
    match = _first_match(record)
    for number, hand in enumerate(record.hands):
        leader = None
        if number == 0 and match.rules.first_lead == "lot" and hand.seed is None and hand.actions:
            leader = hand.actions[0].seat
        check_seed(match.rules, record.seats, hand)
        match = start_hand(match, seed=hand.seed, dealt=hand.dealt, stock=hand.stock, leader=leader)
        for index, action in enumerate(hand.actions):
            for seat, after in hand.left:
                if after == index:
                    match = abandon(match, seat)
            if action.seat in wanted:
                if isinstance(action, Play) and len(legal_moves(match, action.seat)) > 1:
                    view = view_for(match, action.seat)
                    found.append(Position(number, index, view, action))
                else:
                    forced[action.seat] += 1
            match = apply(match, action)
    return found, forced


def _seen(view: SeatView) -> SeatView:
    """The view without the hand's ``seed_sha256``: a commitment to the hidden deal, which
    no estimate may depend on (two deals that look the same to the seat differ there)."""
    return replace(view, seed_sha256=None)


def position_seed(position: Position) -> int:
    """The seed of a judged move's generator: SHA-256 of what the seat saw (``_seen``)
    and the move's place (hand, action index) in the record."""
    seen = _seen(position.view).to_dict()
    text = json.dumps([position.hand, position.action, seen], sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _move(move: Play) -> dict[str, Any]:
    return {"tile": str(move.tile), "end": move.end}


def _scored(estimate: MoveEstimate) -> dict[str, Any]:
    return {
        **_move(estimate.move),
        "hand_win_chance": round(estimate.hand_win_chance, 4),
        "expected_points": round(estimate.expected_points, 2),
    }


def _played_index(estimates: Sequence[MoveEstimate], played: Play) -> int:
    """The estimate of the move played: same tile and end; with equal ends a record may
    name the end or not, so the tile alone decides when it appears once."""
    same_tile = [i for i, e in enumerate(estimates) if e.move.tile == played.tile]
    for i in same_tile:
        if estimates[i].move.end == played.end:
            return i
    if len(same_tile) == 1:
        return same_tile[0]
    raise ValueError(f"{played} is not one of the legal moves")


def mark(win_chance_lost: float, points_lost: float) -> str | None:
    """The level (``THRESHOLDS``) a move's losses reach: ``None``, ``"inaccuracy"``,
    ``"error"`` or ``"blunder"``. ``win_chance_lost`` is 0-1, ``points_lost`` in points."""
    level = None
    for name, chance, points in THRESHOLDS:
        if win_chance_lost >= chance - 1e-9 or points_lost >= points - 1e-9:
            level = name
    return level


def judge(position: Position, estimates: Sequence[MoveEstimate]) -> dict[str, Any]:
    """One judged move as JSON: ``hand``, ``action``, ``seat``, the move played with its
    ``hand_win_chance`` (0-1) and ``expected_points``, ``best`` (the better move, or
    ``None`` when the move played was the best), ``loss`` (``hand_win_chance``,
    ``expected_points``), ``mark`` (``mark``), every legal move as ``alternatives`` and
    the sampled ``deals``. Every tile named is one of the seat's own (R31)."""
    played = _played_index(estimates, position.played)
    best = max(
        range(len(estimates)),
        key=lambda i: (estimates[i].hand_win_chance, estimates[i].expected_points, i == played),
    )
    chance_lost = max(0.0, estimates[best].hand_win_chance - estimates[played].hand_win_chance)
    points_lost = estimates[best].expected_points - estimates[played].expected_points
    return {
        "hand": position.hand,
        "action": position.action,
        "seat": position.view.seat,
        **_scored(estimates[played]),
        "best": None if best == played else _scored(estimates[best]),
        "loss": {
            "hand_win_chance": round(chance_lost, 4),
            "expected_points": round(points_lost, 2),
        },
        "mark": None if best == played else mark(chance_lost, points_lost),
        "alternatives": [_scored(estimate) for estimate in estimates],
        "deals": min(estimate.deals for estimate in estimates),
    }


def summarize(seats: Iterable[int], moves: list[dict], forced: dict[int, int]) -> list[dict]:
    """Per seat: ``moves_analysed`` (judged plays), ``forced`` (actions not judged),
    ``inaccuracies``, ``errors``, ``blunders`` and ``average_loss`` (mean
    ``hand_win_chance`` lost, 0-1, and mean ``expected_points`` lost, over the judged plays;
    a best move counts as no loss)."""
    out = []
    for seat in sorted(set(seats)):
        mine = [move for move in moves if move["seat"] == seat]
        count = len(mine)
        chance = sum(move["loss"]["hand_win_chance"] for move in mine)
        points = sum(max(0.0, move["loss"]["expected_points"]) for move in mine)
        out.append(
            {
                "seat": seat,
                "moves_analysed": count,
                "forced": forced.get(seat, 0),
                "inaccuracies": sum(move["mark"] == "inaccuracy" for move in mine),
                "errors": sum(move["mark"] == "error" for move in mine),
                "blunders": sum(move["mark"] == "blunder" for move in mine),
                "average_loss": {
                    "hand_win_chance": round(chance / count, 4) if count else 0.0,
                    "expected_points": round(points / count, 2) if count else 0.0,
                },
            }
        )
    return out


def analyse(
    record: Record,
    seats: Iterable[int],
    estimator: Estimator | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of ``seats`` (the human seats, 0-based) in ``record``: the optional
    ``analysis`` section of a ``dominoes-record/1`` (docs/RECORD.md): ``format``
    (``dominoes-analysis/1``), ``bot``, ``thresholds``, ``seats``, ``moves`` (``judge``,
    record order) and ``summary`` (``summarize``). ``estimator`` defaults to
    ``quelonia_estimator()``; ``on_progress(done, total)`` is called before the first
    judged move and after each one. Raises ``IllegalMove`` for a record the rules refuse.
    """
    seats = sorted(set(seats))
    estimate = estimator or quelonia_estimator()
    found, forced = positions(record, seats)
    moves = []
    if on_progress:
        on_progress(0, len(found))
    for done, position in enumerate(found, start=1):
        rng = random.Random(position_seed(position))
        moves.append(judge(position, estimate(_seen(position.view), rng)))
        if on_progress:
            on_progress(done, len(found))
    return {
        "format": FORMAT,
        "bot": "quelonia",
        "thresholds": {
            name: {"hand_win_chance": chance, "expected_points": points}
            for name, chance, points in THRESHOLDS
        },
        "seats": seats,
        "moves": moves,
        "summary": summarize(seats, moves, forced),
    }
