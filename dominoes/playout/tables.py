"""The fast path's lookup tables: tile indices, holding masks, pips, values (R1).

See ``dominoes.playout`` for the representation (a tile is an index into ``full_set``, a
holding a bit mask, an end a pip, ``-1`` before the lead).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dominoes.rules import Rules
from dominoes.tiles import Tile, full_set

#: The "tile" of a draw in ``Position.legal_actions``/``act`` (``draw_optional`` only).
DRAW = -2
#: The "tile" of a voluntary pass in ``Position.legal_actions``/``act``.
PASS = -3


_CHUNK = 14
_CHUNK_MASK = (1 << _CHUNK) - 1


class Tables:
    """Precomputed lookup tables for the double-``max_pip`` set (see the module doc).

    Attributes (all indexed by tile index ``t`` or pip ``p``):
    ``tiles`` (``Tile`` per index), ``index`` (``{Tile: t}``), ``pips`` (``(high, low)``),
    ``value`` (``high + low``), ``pip_mask`` (mask per pip), ``other`` (``other[t][p]``,
    ``-1`` when ``t`` does not show ``p``), ``doubles`` (mask), ``all_mask`` (every tile),
    ``heavy_order`` (tile indices heaviest first by R9: value, then high pip),
    ``bits`` (``1 << t`` per tile),
    ``value_chunks`` (``value_chunks[k][b]``: summed values of the tiles whose bits are
    set in ``b``, the ``k``-th 14-bit chunk of a mask).
    """

    __slots__ = (
        "max_pip",
        "tiles",
        "index",
        "pips",
        "value",
        "pip_mask",
        "other",
        "doubles",
        "all_mask",
        "heavy_order",
        "value_chunks",
        "bits",
    )

    def __init__(self, max_pip: int) -> None:
        self.max_pip = max_pip
        self.tiles = full_set(max_pip)
        self.index = {tile: i for i, tile in enumerate(self.tiles)}
        self.pips = tuple((tile.high, tile.low) for tile in self.tiles)
        self.value = tuple(tile.high + tile.low for tile in self.tiles)
        self.pip_mask = tuple(
            sum(1 << i for i, tile in enumerate(self.tiles) if tile.has(pip))
            for pip in range(max_pip + 1)
        )
        self.other = tuple(
            tuple(tile.other(pip) if tile.has(pip) else -1 for pip in range(max_pip + 1))
            for tile in self.tiles
        )
        self.doubles = sum(1 << i for i, tile in enumerate(self.tiles) if tile.is_double)
        self.all_mask = (1 << len(self.tiles)) - 1
        self.bits = tuple(1 << i for i in range(len(self.tiles)))
        self.heavy_order = tuple(
            sorted(
                range(len(self.tiles)), key=lambda i: (self.value[i], self.pips[i][0]), reverse=True
            )
        )
        chunks = []
        for k in range((len(self.tiles) + _CHUNK - 1) // _CHUNK):
            # chunk[b] = chunk[b without its lowest bit] + that bit's tile value
            chunk = [0] * (1 << _CHUNK)
            for byte in range(1, 1 << _CHUNK):
                low = byte & -byte
                i = _CHUNK * k + low.bit_length() - 1
                chunk[byte] = chunk[byte ^ low] + (self.value[i] if i < len(self.tiles) else 0)
            chunks.append(tuple(chunk))
        self.value_chunks = tuple(chunks)

    def mask_value(self, mask: int) -> int:
        """The summed values (R19 count) of the tiles in ``mask``, in points."""
        total = 0
        for chunk in self.value_chunks:
            total += chunk[mask & _CHUNK_MASK]
            mask >>= _CHUNK
        return total


def unsupported(rules: Rules) -> str | None:
    """Why this fast path cannot play ``rules``, or ``None`` when it can: always ``None``
    now, since it plays every field of ``Rules`` (kept for callers that ask)."""
    return None


@cache
def tables_for(max_pip: int) -> Tables:
    """The (cached, shared, read-only) ``Tables`` of the double-``max_pip`` set."""
    return Tables(max_pip)


_T6 = tables_for(6)
#: ``Tile`` per index, double-six set (index 0 is ``6-6``, 27 is ``0-0``).
TILES: tuple[Tile, ...] = _T6.tiles
#: ``{Tile: index}``, double-six set.
TILE_INDEX: dict[Tile, int] = _T6.index
#: ``(high, low)`` per tile index.
PIPS: tuple[tuple[int, int], ...] = _T6.pips
#: ``high + low`` per tile index (R1).
VALUE: tuple[int, ...] = _T6.value
#: ``PIP_MASK[p]``: mask of the tiles showing pip ``p``.
PIP_MASK: tuple[int, ...] = _T6.pip_mask
#: ``OTHER[t][p]``: the other pip of tile ``t`` from pip ``p``, ``-1`` when it lacks ``p``.
OTHER: tuple[tuple[int, ...], ...] = _T6.other
#: Mask of the seven doubles.
DOUBLES: int = _T6.doubles


def ends_after(tables: Tables, left: int, right: int, tile: int, end: int) -> tuple[int, int]:
    """The line's ends ``(left, right)`` (pips) after tile index ``tile`` is played on the
    end showing pip ``end`` of the ends ``left``/``right`` (``-1``: the lead, which gives
    its own pips), as ``Position.play`` places it (R11, R12: on equal ends, the right)."""
    other = tables.other[tile]
    if end < 0:
        return tables.pips[tile]
    if end == right and other[right] >= 0:
        return left, other[right]
    return other[left], right


def mask_of(tiles: Sequence[Tile], max_pip: int = 6) -> int:
    """The bit mask of ``tiles`` (``Tile`` values of the double-``max_pip`` set)."""
    index = tables_for(max_pip).index
    mask = 0
    for tile in tiles:
        mask |= 1 << index[tile]
    return mask


def tiles_of(mask: int, max_pip: int = 6) -> list[Tile]:
    """The ``Tile`` values in ``mask``, heaviest first (``full_set`` order)."""
    tiles = tables_for(max_pip).tiles
    out = []
    while mask:
        low = mask & -mask
        out.append(tiles[low.bit_length() - 1])
        mask ^= low
    return out


def _mask(tiles: Sequence[Tile], index: dict[Tile, int]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << index[tile]
    return mask


def _indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@cache
def _teams(rules: Rules, seats: int) -> tuple[tuple[int, ...], ...] | None:
    """Per seat, the sorted seats of its side when partnerships (R2), else ``None``."""
    if not rules.partnerships(seats):
        return None
    team_of = rules.team_of
    return tuple(
        tuple(s for s in range(seats) if team_of(s, seats) == team_of(seat, seats))
        for seat in range(seats)
    )


def distinct_masks(
    tables: Tables, holdings: Sequence[Sequence[Tile]], stock: Sequence[Tile]
) -> tuple[list[int], tuple[int, ...]]:
    """``(holding masks, stock tile indices)`` for ``holdings`` and ``stock``; raises
    ``ValueError`` when a tile appears twice."""
    index = tables.index
    seen = 0
    hands = []
    for tiles in list(holdings) + [stock]:
        mask = 0
        for tile in tiles:
            bit = 1 << index[tile]
            if seen & bit:
                raise ValueError(f"{tile} appears twice")
            seen |= bit
            mask |= bit
        hands.append(mask)
    hands.pop()
    return hands, tuple(index[tile] for tile in stock)
