"""The matches the world is made of: played by the engine and the bots from seeded deals
(``tests.support.world`` reuses each under many table ids). No Django here."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace

from dominoes import match_to_dict, new_match, play_turn, seed_sha256, view_for
from dominoes.bots import choose_play
from dominoes.engine import advance, optional_actions, start_hand

BOTS = ("garabato", "nino", "quelonia")
#: The bots that choose the templates' plays (Abuela Quelonia thinks too long for this).
QUICK_BOTS = ("garabato", "nino")
#: (seats, target) of the tables, in the proportions the world has them.
SIZES = ((2, 100), (2, 50), (3, 100), (4, 100), (4, 50))
#: The hands a stored snapshot keeps, as ``tables.services.transitions.SNAPSHOT_HANDS`` (no
#: Django here: ``bench/world.py`` checks that the two agree).
SNAPSHOT_HANDS = 2


def snapshot(match) -> dict:
    """``Table.state`` as the service stores it: the last ``SNAPSHOT_HANDS`` hands."""
    return match_to_dict(replace(match, hands=match.hands[-SNAPSHOT_HANDS:]))


@dataclass
class Template:
    """One match played by the engine: its snapshots and rows before ids are given."""

    seats: int
    target: int
    final: dict  # the snapshot at the end (``snapshot``)
    hands: list[dict]  # Hand columns, without table, ids and times
    moves: list[list[dict]]  # per hand, Move columns without ids and times
    versions: int
    prefixes: list[tuple[dict, int, int, int]] = field(default_factory=list)
    # (snapshot, hands so far, moves so far, turn seat) at points mid-match, for running tables


def _bot_action(match, rng):
    view = view_for(match, match.hand.turn)
    if view.legal_moves:
        return choose_play(rng.choice(QUICK_BOTS), view, seed=rng.getrandbits(32))
    return optional_actions(match)[0]


def _continue(match, rng):
    match = advance(match)
    while match.hand.is_over and not match.is_over:
        match = advance(start_hand(match, seed=rng.randbytes(32)))
    return match


def play_template(seats: int, target: int, rng: random.Random) -> Template:
    """A whole match played by bots from seeded deals, with a few mid-match snapshots."""
    match = advance(new_match(seats, target, seed=rng.randbytes(32)))
    prefixes, turns = [], 0
    while not match.is_over:
        match = _continue(play_turn(match, _bot_action(match, rng)), rng)
        turns += 1
        if not match.is_over and rng.random() < 0.15:
            done = sum(len(hand.actions) for hand in match.hands)
            prefixes.append((snapshot(match), len(match.hands), done, match.hand.turn))
    hands, moves = [], []
    for hand in match.hands:
        result = hand.result
        hands.append(
            {
                "number": hand.number,
                "seed": hand.seed.hex(),
                "seed_sha256": seed_sha256(hand.seed),
                "dealt": json.dumps([[str(tile) for tile in tiles] for tiles in hand.dealt]),
                "stock": json.dumps([str(tile) for tile in hand.stock]),
                "leader": hand.leader,
                "end": result.end.value if result else "",
                "winners": json.dumps(list(result.winners)) if result else None,
                "points": result.points if result else None,
                "counts": json.dumps(list(result.counts)) if result else None,
            }
        )
        moves.append([_move_columns(action) for action in hand.actions])
    versions = 1 + sum(1 for per_hand in moves for move in per_hand if not move["automatic"])
    final = snapshot(match)
    return Template(seats, target, final, hands, moves, versions, prefixes)


def _move_columns(action) -> dict:
    kind = type(action).__name__.lower()
    return {
        "seat": action.seat,
        "kind": kind,
        "tile": str(action.tile) if kind != "pass" else "",
        "end": action.end if kind == "play" else None,
        "automatic": kind != "play",
    }


def templates(count: int, rng: random.Random) -> list[Template]:
    """``count`` matches per table size in ``SIZES``, each with a mid-match snapshot."""
    made = []
    for seats, target in SIZES:
        while sum(1 for t in made if (t.seats, t.target) == (seats, target)) < count:
            template = play_template(seats, target, rng)
            if template.prefixes:
                made.append(template)
    return made
