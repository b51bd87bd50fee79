"""Tiles and sets (R1).

A tile is an immutable ``Tile(high, low)`` with ``high >= low``; it prints as ``"6-4"``.
Every tile of a set is interned, so tiles compare and hash as plain tuples.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from dominoes.errors import UnreadableRecord


class Tile(NamedTuple):
    """One domino tile, high pip first (R1).

    ``high`` and ``low`` are pip counts (0..max pip of the set), ``high >= low``.
    """

    high: int
    low: int

    @property
    def value(self) -> int:
        """The tile's value in points: the sum of its pips (R1)."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """True for a double (both halves equal)."""
        return self.high == self.low

    def has(self, pip: int) -> bool:
        """True when one of the tile's halves shows ``pip``."""
        return self.high == pip or self.low == pip

    def other(self, pip: int) -> int:
        """The pip on the other half from ``pip``; the tile must show ``pip``."""
        return self.low if self.high == pip else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"


_TILE_NAME = re.compile(r"([0-9]{1,2})-([0-9]{1,2})", re.ASCII)


def make_tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` in either order."""
    return Tile(a, b) if a >= b else Tile(b, a)


@cache
def full_set(max_pip: int = 6) -> tuple[Tile, ...]:
    """Every tile of the double-``max_pip`` set, heaviest first (28 tiles for double-six, R1)."""
    return tuple(Tile(high, low) for high in range(max_pip, -1, -1) for low in range(high, -1, -1))


@cache
def _tiles_by_name(max_pip: int) -> dict[str, Tile]:
    """Every tile of the double-``max_pip`` set by its names, ``"6-4"`` and ``"4-6"``."""
    names = {}
    for tile in full_set(max_pip):
        names[f"{tile.high}-{tile.low}"] = names[f"{tile.low}-{tile.high}"] = tile
    return names


def parse_tile(text: object, max_pip: int = 6) -> Tile:
    """Read a tile written ``"a-b"`` in either pip order.

    Raises ``UnreadableRecord`` for anything that is not a tile of the double-``max_pip`` set.
    A plain name is looked up (a snapshot holds a hundred of them); anything else (spaces,
    a leading zero, not a tile) goes through the full reading.
    """
    known = _tiles_by_name(max_pip).get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    if not isinstance(text, str):
        raise UnreadableRecord(f"a tile must be a string like '6-4', not {text!r}")
    found = _TILE_NAME.fullmatch(text.strip())
    if found is None:
        raise UnreadableRecord(f"{text!r} is not a tile name like '6-4'")
    a, b = int(found[1]), int(found[2])
    if a > max_pip or b > max_pip:
        raise UnreadableRecord(f"{text!r} is not a tile of the double-{max_pip} set")
    return make_tile(a, b)


def heaviest(tiles: object) -> Tile:
    """The heaviest tile: highest value, then the higher high pip (R9: ``6-3`` beats ``5-4``)."""
    return max(tiles, key=lambda tile: (tile.value, tile.high))


# --- the line: what fits and where a tile goes (R11, R12) -----------------------------------


def fits(tile: tuple[int, int], ends: tuple[int, int] | None) -> bool:
    """True when a tile with pips ``tile`` (a ``Tile`` or a ``(high, low)`` pair) can be
    placed on the line with ``ends`` (``None`` before the lead: any tile leads) (R11)."""
    if ends is None:
        return True
    high, low = tile
    left, right = ends
    return high == left or high == right or low == left or low == right


def holds_fit(tiles, ends: tuple[int, int] | None) -> bool:
    """True when one of ``tiles`` fits the line with ``ends`` (``fits``); before the lead,
    when ``tiles`` is not empty."""
    return any(fits(tile, ends) for tile in tiles)


def place(
    ends: tuple[int, int] | None, tile: tuple[int, int], end: int | None
) -> tuple[bool, tuple[int, int]] | None:
    """Where a tile with pips ``tile`` (``(high, low)`` or a ``Tile``) goes on the end
    showing pip ``end`` (R11, R12): ``(on_right, new ends)``, or ``None`` when it does not
    fit there. ``end=None`` places it on whichever end it fits, the right one when it fits
    both. When both ends show ``end`` the tile goes on the right. Before the lead (``ends``
    ``None``) the tile is the line: ``(True, (high, low))``, whatever ``end`` says.

    The one placement rule of the engine (``engine.apply``), the fast path's ``Position``
    and the bots; the fast path's loops read it as tables of the other pip
    (``Tables.other``), checked against the engine by
    ``tests/engine/test_playout_matches_engine.py``."""
    high, low = tile
    if ends is None:
        return True, (high, low)
    left, right = ends
    if end is None:
        end = right if high == right or low == right else left
    if end == right and (high == right or low == right):
        return True, (left, low if high == right else high)
    if end == left and (high == left or low == left):
        return False, (low if high == left else high, right)
    return None
