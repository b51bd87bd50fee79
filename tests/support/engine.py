"""Shared helpers for the engine tests: positions built through the public API only.

Positions come from explicit deals (``table``) or from the repository's replay cases
(``case_match``); nothing here reaches into the engine's private helpers.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dominoes import (
    CLASSIC,
    MatchState,
    Play,
    Tile,
    apply,
    full_set,
    load_record,
    match_to_dict,
    parse_tile,
    start_hand,
)

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases"

#: 300 fixed 32-byte seeds (sha256 of "0", "1", ...): reproducible deals for the rule tests.
SEEDS = [hashlib.sha256(str(n).encode()).digest() for n in range(300)]


def doubles(hand) -> int:
    """How many doubles ``hand`` (tiles) holds (R5 counts them)."""
    return sum(1 for tile in hand if tile.is_double)


def T(name: str) -> Tile:
    """One tile by name, either pip order (``T("4-6") == Tile(6, 4)``)."""
    return parse_tile(name)


def tiles(names: str) -> tuple[Tile, ...]:
    """Tiles from a space-separated list of names."""
    return tuple(parse_tile(name) for name in names.split())


def empty_match(seats: int, target: int = 100) -> MatchState:
    """A classic match with no hand dealt yet (what ``replay`` starts from)."""
    return MatchState(rules=CLASSIC, seats=seats, target=target, scores=(0,) * seats, hands=())


def deal_of(hands: list[str], stock: str = "") -> tuple[tuple[tuple[Tile, ...], ...], tuple]:
    """``(dealt, stock)``: the seats' tiles as given, then ``stock`` on top of the stock and
    the rest of the set below it (heaviest first)."""
    dealt = tuple(tiles(hand) for hand in hands)
    top = tiles(stock) if stock else ()
    used = {tile for hand in dealt for tile in hand} | set(top)
    return dealt, top + tuple(tile for tile in full_set() if tile not in used)


def table(hands: list[str], stock: str = "", target: int = 100, before: MatchState | None = None):
    """A match whose next hand is dealt exactly as given (see ``deal_of``)."""
    dealt, rest = deal_of(hands, stock)
    match = before if before is not None else empty_match(len(hands), target)
    return start_hand(match, dealt=dealt, stock=rest)


def case(name: str) -> dict:
    """The parsed JSON of ``tests/cases/NAME.json``."""
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def case_match(name: str, hand: int | None = None, upto: int | None = None) -> MatchState:
    """The match of case ``name`` with every hand before ``hand`` played out and the first
    ``upto`` actions of hand ``hand`` applied (defaults: the last hand, all its actions)."""
    record = load_record(case(name))
    hand = len(record.hands) - 1 if hand is None else hand
    match = empty_match(record.seats, record.target)
    for number, recorded in enumerate(record.hands[: hand + 1]):
        match = start_hand(match, dealt=recorded.dealt, stock=recorded.stock)
        actions = recorded.actions if number < hand or upto is None else recorded.actions[:upto]
        for action in actions:
            match = apply(match, action)
    return match


def play(match: MatchState, seat: int, tile: str, end: int | None = None) -> MatchState:
    """``apply`` a play given by tile name."""
    return apply(match, Play(seat, T(tile), end))


def snapshot(match: MatchState) -> str:
    """A canonical JSON text of the whole state, for before/after comparisons."""
    return json.dumps(match_to_dict(match), sort_keys=True)


def line_tiles(match: MatchState) -> list[Tile]:
    """The tiles on the line, as tiles."""
    return [parse_tile(f"{a}-{b}") for a, b in match.hand.line]


# A four-seat hand (seat 0 leads 6-6) that ends blocked with both ends 6 and all seven
# sixes on the line: 0:6-6, 1:6-2, 2:2-1, 3:6-1, 0:6-3, 1:4-3, 2:6-4, 3:6-5, 0:5-0, 1:6-0.
BLOCK_PLAYS = [
    (0, "6-6", None),
    (1, "6-2", 6),
    (2, "2-1", 2),
    (3, "6-1", 1),
    (0, "6-3", 6),
    (1, "4-3", 3),
    (2, "6-4", 4),
    (3, "6-5", 6),
    (0, "5-0", 5),
    (1, "6-0", 0),
]
#: Team counts 45 and 45 at the block (R22: nobody scores). Seat counts 20, 23, 25, 22.
BLOCK_TIED = [
    "6-6 6-3 5-0 5-5 5-4 0-0 1-0",
    "6-2 4-3 6-0 4-4 3-3 1-1 5-2",
    "2-1 6-4 5-3 2-2 3-0 4-1 3-2",
    "6-1 6-5 5-1 4-2 4-0 3-1 2-0",
]
#: As ``BLOCK_TIED`` with 5-3 and 2-0 swapped: seat counts 20, 23, 19, 28, team A 39 < 51.
BLOCK_TEAM_A_LOWER = [
    "6-6 6-3 5-0 5-5 5-4 0-0 1-0",
    "6-2 4-3 6-0 4-4 3-3 1-1 5-2",
    "2-1 6-4 2-0 2-2 3-0 4-1 3-2",
    "6-1 6-5 5-1 4-2 4-0 3-1 5-3",
]


def play_block(hands: list[str], upto: int | None = None) -> MatchState:
    """The four-seat ``BLOCK_PLAYS`` hand dealt as ``hands``, played up to ``upto`` plays."""
    match = table(hands)
    for seat, tile, end in BLOCK_PLAYS[:upto]:
        match = play(match, seat, tile, end)
    return match


def bot_positions(
    seats: int,
    count: int,
    seed: int,
    hands: int = 3,
    bot: str | None = None,
    keep: float = 0.5,
) -> list:
    """``count`` positions with a choice to make, as ``(match, view of the seat to act)``
    pairs, across up to ``hands`` hands of classic matches to 100: every seat plays bot
    ``bot`` (``None``: a uniformly random legal play); each position with more than one
    legal move is kept with chance ``keep``. Deterministic for a ``seed``."""
    import random

    from dominoes import advance, new_match, view_for
    from dominoes.bots import choose_play

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        match = advance(new_match(seats, 100, seed=rng.randbytes(8)))
        for _ in range(hands):
            while match.hand.result is None:
                view = view_for(match, match.hand.turn)
                if len(view.legal_moves) > 1 and rng.random() < keep:
                    found.append((match, view))
                if bot is None:
                    move = view.legal_moves[rng.randrange(len(view.legal_moves))]
                else:
                    move = choose_play(bot, view, seed=rng.randrange(99))
                match = advance(apply(match, move))
            if match.is_over:
                break
            match = advance(start_hand(match, seed=rng.randbytes(8)))
    return found[:count]


def position_state(pos) -> tuple:
    """What makes two ``dominoes.playout.Position`` objects the same position: holdings,
    undrawn stock, ends, seat to act and passes since the last play. Compare two with
    ``==`` (pytest then shows which part differs)."""
    return (pos.hands, pos.remaining_stock(), pos.ends, pos.turn, pos.passes)
