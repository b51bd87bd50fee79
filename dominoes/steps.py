"""Every position of a recorded match, hand by hand and move by move, for a replay.

Built from a loaded record (``dominoes.record.load_record``) with the same engine calls as
``replay_match`` (``start_hand``, ``apply``, the seed check of R6), so a replay drawn from
these steps can never disagree with the rules or with ``python -m dominoes replay``.
"""

from __future__ import annotations

from typing import Any

from dominoes.engine import apply, start_hand
from dominoes.errors import IllegalMove
from dominoes.leaving import abandon
from dominoes.record import Record, check_seed, summarize
from dominoes.rules import PROFILES
from dominoes.state import Draw, MatchState, Pass, Play


def _action(action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"seat": action.seat, "kind": "play", "tile": str(action.tile), "end": action.end}
    if isinstance(action, Draw):
        return {"seat": action.seat, "kind": "draw", "tile": str(action.tile)}
    assert isinstance(action, Pass)
    return {"seat": action.seat, "kind": "pass"}


def _position(match: MatchState, action) -> dict[str, Any]:
    hand = match.hand
    return {
        "action": _action(action) if action is not None else None,
        "line": [list(pair) for pair in hand.line],
        "holdings": [[str(tile) for tile in tiles] for tiles in hand.holdings],
        "stock_left": hand.stock_left,
        "scores": list(match.scores),
    }


def replay_steps(record: Record) -> dict[str, Any]:
    """``{"hands": [...], "answer": ...}``: per recorded hand its ``number``, ``seed`` and
    ``seed_sha256`` (hex, ``None`` when the record has none), ``seed_checked`` (the seed
    hashes to its commitment and deals the recorded tiles, R6) and ``steps``: the position
    after the deal, then after each action (``action``, ``line``, every seat's
    ``holdings``, ``stock_left``, ``scores``); ``answer`` is what ``python -m dominoes
    replay`` answers for the record (``dominoes.record.summarize``).

    Raises ``IllegalMove`` for a record the rules refuse (a bad deal, an illegal action).
    """
    rules = PROFILES[record.rules]
    match = MatchState(
        rules=rules, seats=record.seats, target=record.target, scores=(0,) * record.seats, hands=()
    )
    hands = []
    for number, hand in enumerate(record.hands):
        leader = None
        if number == 0 and rules.first_lead == "lot" and hand.seed is None and hand.actions:
            leader = hand.actions[0].seat  # drawn by lot, no seed: the first actor led
        check_seed(rules, record.seats, hand)
        match = start_hand(match, seed=hand.seed, dealt=hand.dealt, stock=hand.stock, leader=leader)
        steps = [_position(match, None)]
        for index, action in enumerate(hand.actions):
            for seat, after in hand.left:
                if after == index:
                    match = abandon(match, seat)
            match = apply(match, action)
            steps.append(_position(match, action))
        hands.append(
            {
                "number": number,
                "seed": hand.seed.hex() if hand.seed is not None else None,
                "seed_sha256": hand.seed_sha256,
                "seed_checked": hand.seed is not None,
                "steps": steps,
            }
        )
    if not hands:
        raise IllegalMove("no_hands", "the record has no finished hand to replay")
    return {"hands": hands, "answer": summarize(match)}
