"""The fast path's random deals and first leads (R4, R5, R7-R10), for simulations only:
the service deals with ``dominoes.deal`` (R6)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from dominoes.lead import decide_first_lead
from dominoes.playout.position import Position
from dominoes.playout.tables import Tables, tables_for
from dominoes.rules import Rules


@cache
def _shuffle_plan(n: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Random bits to draw and the Fisher-Yates steps ``(i, i + 1)`` for ``n`` items."""
    bits = 1
    for k in range(2, n + 1):
        bits *= k
    return bits.bit_length() + 64, tuple((i, i + 1) for i in range(n - 1, 0, -1))


def random_order(n: int, rng: random.Random) -> list[int]:
    """A random permutation of ``range(n)``: Fisher-Yates fed by the mixed-radix digits of
    one ``rng.getrandbits`` draw 64 bits longer than ``n!``, so every ordering has
    probability within a factor ``1 +/- 2**-64`` of ``1/n!``; several times faster than
    ``rng.shuffle``. For simulations only: the service deals with ``dominoes.deal`` (R6).
    """
    bits, steps = _shuffle_plan(n)
    order = list(range(n))
    x = rng.getrandbits(bits)
    for i, k in steps:
        x, j = divmod(x, k)
        order[i], order[j] = order[j], order[i]
    return order


@cache
def _deal_plan(rules: Rules, seats: int) -> tuple:
    """Everything ``_deal`` needs for ``rules`` and ``seats``, computed once."""
    if seats not in rules.seat_counts:
        raise ValueError(f"{rules.name} is played with {rules.seat_counts} seats, not {seats}")
    tables = tables_for(rules.max_pip)
    tile_bits = tuple(tables.bits[tables.index[tile]] for tile in rules.tile_set())
    bits, steps = _shuffle_plan(len(tile_bits))
    per_seat = rules.tiles_per_seat[seats]
    cuts = tuple((s * per_seat, (s + 1) * per_seat) for s in range(seats))
    limit = rules.redeal_doubles if rules.redeal_doubles is not None else len(tile_bits) + 1
    stock_from = seats * per_seat if rules.draw_from_stock else len(tile_bits)
    need_double = rules.first_lead == "double"
    return tile_bits, bits, steps, cuts, tables.doubles, limit, stock_from, need_double


def _deal(plan: tuple, getrandbits) -> tuple[list[int], tuple[int, ...]]:
    """``random_deal`` over a ``_deal_plan``: ``random_order`` inlined over tile bits."""
    tile_bits, bits, steps, cuts, doubles, limit, stock_from, need_double = plan
    while True:
        order = list(tile_bits)
        x = getrandbits(bits)
        for i, k in steps:
            x, j = divmod(x, k)
            order[i], order[j] = order[j], order[i]
        hands = [sum(order[a:b]) for a, b in cuts]
        for mask in hands:
            if (mask & doubles).bit_count() >= limit:
                break
        else:
            if need_double and not sum(hands) & doubles:
                continue  # the lead must be a double and nobody holds one: deal again
            if stock_from == len(order):
                return hands, ()
            return hands, tuple([bit.bit_length() - 1 for bit in order[stock_from:]])


def random_deal(rules: Rules, seats: int, rng: random.Random) -> tuple[list[int], tuple[int, ...]]:
    """A random deal as ``(holding masks, stock tile indices in draw order)`` (R4, R5).

    Shuffles the profile's set (``rules.tile_set()``, excluded tiles left out) as
    ``random_order`` does (one ``rng.getrandbits`` per shuffle): fine for simulations and
    benchmarks, but NOT the service's deal, which is the seeded, verifiable CSPRNG shuffle
    of ``dominoes.deal`` (R6). Seat ``s`` takes the ``s``-th run of
    ``rules.tiles_per_seat[seats]`` tiles, the rest is the stock, as in ``dominoes.deal``.
    Redeals while a seat holds ``rules.redeal_doubles`` doubles or more (R5), or, for
    ``first_lead == "double"``, while nobody holds a double. ``stock`` is empty when
    ``rules.draw_from_stock`` is false (``cuban``'s 15 tiles out are not a stock). Raises
    ``ValueError`` for a bad seat count (R2).
    """
    return _deal(_deal_plan(rules, seats), rng.getrandbits)


def first_lead(
    tables: Tables, rules: Rules, hands: Sequence[int], rng: random.Random | None = None
) -> tuple[int, int]:
    """The first hand's ``(leader, required tile index)`` as ``dominoes.engine`` decides it:
    R7-R9 for ``"highest_double"``; ``(0, -1)`` for ``"any"``; for ``"double"`` the holder
    of the highest double, ``-1`` (it leads any of its doubles: ``Position.lead_mask``);
    for ``"lot"`` a seat drawn uniformly with one ``rng.random()`` and ``-1`` (the
    engine's seeded lot, ``dominoes.deal.lot_leader``, is independent of the deal and gives
    every seat the same chance). Raises ``ValueError`` for a lot without ``rng``."""
    dealt = 0
    for mask in hands:
        dealt |= mask
    doubles = dealt & tables.doubles
    if doubles:  # the highest double has the lowest index
        bit = doubles & -doubles
        highest, heaviest = (bit.bit_length() - 1, _holder(hands, bit)), None
    else:  # R9, only asked for when no double was dealt
        highest, heaviest = None, lambda: _heaviest(tables, hands, dealt)
    seat, tile, _ = decide_first_lead(rules, highest, heaviest, 0)
    if seat is None:  # by lot
        if rng is None:
            raise ValueError("a first lead by lot needs an rng")
        return int(rng.random() * len(hands)), -1
    return seat, (-1 if tile is None else tile)


def _holder(hands: Sequence[int], bit: int) -> int:
    """The seat whose holding mask has ``bit``."""
    seat = 0
    for mask in hands:
        if mask & bit:
            return seat
        seat += 1
    raise ValueError("no seat holds that tile")


def _heaviest(tables: Tables, hands: Sequence[int], dealt: int) -> tuple[int, int]:
    """``(tile, seat)`` of the heaviest tile dealt (R9)."""
    tile = next(tile for tile in tables.heavy_order if dealt >> tile & 1)
    return tile, _holder(hands, 1 << tile)


def first_hand_position(
    rules: Rules,
    seats: int,
    hands: list[int],
    stock: tuple[int, ...],
    rng: random.Random | None = None,
) -> Position:
    """The position at the start of a match's first hand dealt as ``hands``/``stock``
    (masks / tile indices in draw order), with the profile's first lead (``first_lead``;
    ``rng`` draws a lead by lot). Takes ownership of ``hands``."""
    pos = Position._blank(rules, seats)
    pos.hands = hands
    pos.stock = stock
    pos.left = pos.right = -1
    pos.turn, pos.required = first_lead(pos.tables, rules, hands, rng)
    pos.leader = pos.turn
    return pos
