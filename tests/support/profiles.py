"""Matches of any rule profile (docs/profiles.md) dealt as given, for the profile tests:
tiles read with the profile's highest pip, empty matches, exact deals and plays."""

from __future__ import annotations

from dominoes import (
    MatchState,
    Play,
    advance,
    apply,
    legal_moves,
    parse_tile,
    start_hand,
)
from dominoes.engine import optional_actions
from dominoes.rules import Rules

#: The fixed 32-byte seed the profile tests deal from.
SEED = bytes(range(32))


def tiles(names: str, max_pip: int = 6):
    """Tiles from space-separated names, read with the profile's highest pip."""
    return tuple(parse_tile(name, max_pip) for name in names.split())


def empty(rules: Rules, seats: int, target: int | None = None) -> MatchState:
    """A match of ``rules`` with no hand dealt yet (its first target unless given)."""
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
    """``seat`` plays the tile named ``name`` on ``end`` (None: the lead or either end)."""
    return apply(match, Play(seat, parse_tile(name, match.rules.max_pip), end))


def finish_first_hand(match, chooser=lambda moves: moves[0]):
    """Play the match's hand to its end, ``chooser`` picking among the legal and optional
    actions (the first by default), the automatic ones applied in between."""
    while not match.hand.is_over:
        match = advance(match)
        if match.hand.is_over:
            break
        match = apply(match, chooser(legal_moves(match) + optional_actions(match)))
    return match
