"""Sampling hidden deals consistent with what a seat knows (determinization).

The unseen tiles are dealt to the other seats' slots and to the stock, so that every seat
gets exactly the number of tiles it holds and no slot gets a tile showing a pip the seat
was seen to lack while that slot was in its hand (see ``knowledge``).
"""

from __future__ import annotations

import random
from functools import lru_cache

from dominoes.bots.knowledge import Knowledge, pip_bits
from dominoes.tiles import Tile
from dominoes.view import SeatView

#: Attempts at a fully consistent deal before relaxing the constraints.
ATTEMPTS = 40


def sample_world(
    view: SeatView, knowledge: Knowledge, rng: random.Random
) -> tuple[list[list[Tile]], list[Tile]]:
    """One hidden deal: ``(holdings, stock)``; ``holdings[me]`` is the viewer's own tiles,
    ``stock`` is in a random draw order."""
    owners, _, tiles = sample_slots(view, knowledge, rng)
    return world_of(view, owners, tiles, rng)


def sample_slots(
    view: SeatView, knowledge: Knowledge, rng: random.Random
) -> tuple[list[int], list[int], list[Tile]]:
    """One hidden deal slot by slot: ``(owners, masks, tiles)``, per slot its seat (the
    other seats' slots in seat and ``knowledge.slots`` order, then ``-1`` for each tile of
    the stock), the pips its tile must not show, and the tile dealt to it."""
    me = view.seat
    owners: list[int] = []  # -1 for the stock
    masks: list[int] = []
    for seat in range(view.seats):
        if seat == me:
            continue
        for mask in knowledge.slots[seat]:
            owners.append(seat)
            masks.append(mask)
    for _ in range(view.stock_size):
        owners.append(-1)
        masks.append(0)
    tiles = list(knowledge.unseen)
    if len(tiles) != len(owners):  # inconsistent view; deal what we can
        tiles = tiles[: len(owners)] + [tiles[0]] * max(0, len(owners) - len(tiles))
    return owners, masks, _assign(tiles, masks, rng)


def world_of(
    view: SeatView, owners: list[int], tiles: list[Tile], rng: random.Random
) -> tuple[list[list[Tile]], list[Tile]]:
    """The deal ``(holdings, stock)`` of slots ``owners`` holding ``tiles``
    (``sample_slots``), the viewer's own tiles in its seat, the stock shuffled into a
    random draw order."""
    holdings: list[list[Tile]] = [[] for _ in range(view.seats)]
    holdings[view.seat] = list(view.tiles)
    stock: list[Tile] = []
    for owner, tile in zip(owners, tiles, strict=True):
        (stock if owner < 0 else holdings[owner]).append(tile)
    rng.shuffle(stock)
    return holdings, stock


def _assign(tiles: list[Tile], masks: list[int], rng: random.Random) -> list[Tile]:
    """A random tile for every slot, respecting the masks when possible."""
    n = len(tiles)
    allowed = _allowed(tuple(pip_bits(tile) for tile in tiles), tuple(masks))
    for _ in range(ATTEMPTS):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=lambda t: len(allowed[t]))  # most constrained tiles first
        free = [True] * n
        result: list[Tile | None] = [None] * n
        ok = True
        for t in order:
            options = [s for s in allowed[t] if free[s]]
            if not options:
                ok = False
                break
            slot = options[rng.randrange(len(options))]
            free[slot] = False
            result[slot] = tiles[t]
        if ok:
            return result  # type: ignore[return-value]
    shuffled = list(tiles)
    rng.shuffle(shuffled)
    return shuffled


@lru_cache(maxsize=64)
def _allowed(bits: tuple[int, ...], masks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per tile (its pip mask ``bits[t]``), the slots whose forbidden-pip mask it avoids.
    The same for every deal sampled in one decision, so it is computed once there (it was
    a fifth of a cuban decision's sampling)."""
    slots = range(len(masks))
    return tuple(tuple(s for s in slots if not masks[s] & tile_bits) for tile_bits in bits)
