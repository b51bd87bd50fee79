"""The fast path's steps on raw values, one for ``Position`` and the random loop (``run``).

A seat to act that holds no tile fitting the line's ends draws (R14, R16), passes (R15),
or, under ``draw_optional``, chooses to draw or to pass; the hand blocks when nobody can
play or draw (R18), when no unplayed tile fits (``stock_on_block``) or after a whole round
of passes (``draw_optional``): ``no_fit_step``. A seat that fits plays (R11-R13):
``random_play`` picks one of its plays at random and places it as ``tiles.place`` does;
``random_lead`` picks the lead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from dominoes.playout.tables import tables_for
from dominoes.seats import NEXT_SEATS

#: ``no_fit_step`` outcomes: the seat returned holds a fitting tile; it must choose to
#: draw or to pass (``draw_optional``, no ``random_``); the hand is blocked.
FITS = 0
CHOOSING = 1
BLOCKED = 2


def stock_block(hands: Sequence[int], stock: Sequence[int], drawn: int, fit: int) -> int:
    """``stock_on_block``: with stock left (``drawn < len(stock)``), the mask of the
    undrawn tiles when no unplayed tile (held or in the stock) fits ``fit``: the hand is
    blocked now and those tiles join the count of the seat to act, the closer's rival.
    ``0`` while some tile fits."""
    rest = 0
    for t in stock[drawn:]:
        rest |= 1 << t
    anyone = rest
    for held in hands:
        anyone |= held
    return 0 if anyone & fit else rest


def live_tiles(hands: Sequence[int], out: tuple[int, ...] = ()) -> int:
    """Every tile held by a seat still playing (the tiles of ``out`` fit nothing)."""
    anyone = 0
    if not out:
        for tiles in hands:
            anyone |= tiles
        return anyone
    for seat, tiles in enumerate(hands):
        if seat not in out:
            anyone |= tiles
    return anyone


def no_fit_step(
    hands, stock, drawn, seat, fit, passes, optional, closer_rival, random_=None, out=()
) -> tuple[int, int, int, int]:
    """From ``seat``, holding nothing that fits ``fit`` (both ends' mask), the draws and
    passes (R14-R16) until a seat fits or the hand blocks (R18); mutates ``hands`` (holding
    masks; ``stock[drawn:]`` is the stock, tile indices).
    Returns ``(seat, drawn, passes, FITS | CHOOSING | BLOCKED)``.

    ``passes`` since the last play: one per seat still playing blocks (``optional``, i.e.
    ``draw_optional``; there a seat with stock left chooses: the step stops, ``CHOOSING``,
    or with ``random_`` draws when ``random_() < 0.5``, else passes). ``closer_rival``
    (``stock_on_block``): the stock goes to the seat to act once no unplayed tile fits.
    ``out``: seats that left, skipped."""
    n_stock = len(stock)
    seats = len(hands)
    nxt = NEXT_SEATS[seats]
    start = -1  # the first seat to pass on an empty stock, and the passes then
    hand = hands[seat]
    while True:
        if hand & fit:
            hands[seat] = hand
            return seat, drawn, passes, FITS
        if drawn < n_stock:
            hands[seat] = hand
            if closer_rival:
                rest = stock_block(hands, stock, drawn, fit)
                if rest:
                    hands[seat] = hand | rest
                    return seat, n_stock, passes, BLOCKED
            if not optional:  # R14: draw until a tile fits or the stock is empty
                while drawn < n_stock:
                    bit = 1 << stock[drawn]
                    drawn += 1
                    hand |= bit
                    if bit & fit:
                        break
                continue
            if random_ is None:
                return seat, drawn, passes, CHOOSING
            if random_() < 0.5:
                hand |= 1 << stock[drawn]
                drawn += 1
                continue
        hands[seat] = hand  # it passes (R15)
        passes += 1
        if drawn == n_stock:
            if optional:
                if not live_tiles(hands, out) & fit:
                    return seat, drawn, passes, BLOCKED
            elif start < 0:
                start, start_passes = seat, passes
        if optional and passes >= seats - len(out):
            return seat, drawn, passes, BLOCKED
        seat = nxt[seat]
        while out and seat in out:
            seat = nxt[seat]
        if seat == start:  # every seat still playing passed on an empty stock (R18)
            return seat, drawn, start_passes, BLOCKED
        hand = hands[seat]


def nth_tile(mask: int, k: int) -> int:
    """The bit of the ``k``-th tile (from 0, by tile index) of the non-empty ``mask``;
    ``k`` below ``mask.bit_count()``."""
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


def random_lead(choices: int, random_) -> int:
    """The tile index of a uniformly random lead among ``choices`` (a non-empty mask: the
    leader's holding and the profile's lead mask, R7-R10); one ``random_()`` draw when
    there are two or more, none for one."""
    if choices & (choices - 1):
        choices = nth_tile(choices, int(random_() * choices.bit_count()))
    return (choices & -choices).bit_length() - 1


@cache
def plays_by_pip(max_pip: int) -> tuple[dict[int, tuple[tuple[int, int], ...]], ...]:
    """Per pip ``p`` of the double-``max_pip`` set, every holding's plays on an end showing
    ``p``: ``table[p][hand & pip_mask[p]]`` is, by tile index, ``(the tile's bit, the pip
    it leaves on that end)`` (R11, R12). Built once per set (1024 holdings a pip at
    double-nine)."""
    tables = tables_for(max_pip)
    result = []
    for pip, mask in enumerate(tables.pip_mask):
        entries = [
            (1 << tile, tables.other[tile][pip])
            for tile in range(len(tables.tiles))
            if mask >> tile & 1
        ]
        by_holding = {}
        for subset in range(1 << len(entries)):
            chosen = tuple(entry for k, entry in enumerate(entries) if subset >> k & 1)
            by_holding[sum(bit for bit, _ in chosen)] = chosen
        result.append(by_holding)
    return tuple(result)


def random_play(
    plays_at, pip_mask, hand: int, left: int, right: int, random_
) -> tuple[int, int, int]:
    """A uniformly random play of holding ``hand`` on the line's ends ``left``/``right``
    (pips; not the lead, and ``hand`` fits one of them), placed (R11-R13); ``plays_at`` is
    ``plays_by_pip(max_pip)``, ``pip_mask`` the set's ``Tables.pip_mask``.

    The play is the ``k``-th of ``Position.legal_plays`` (the tiles fitting the left end
    by index, then those fitting the right end; once when both ends show the same pip,
    then the tile goes on the right, as ``tiles.place`` places it), with ``k =
    int(random_() * n)`` of ``n`` plays; no ``random_()`` draw when ``n`` is 1.
    Returns ``(the tile's bit, new left, new right)``."""
    on_left = plays_at[left][hand & pip_mask[left]]
    if left == right:
        n = len(on_left)
        bit, pip = on_left[int(random_() * n)] if n > 1 else on_left[0]
        return bit, left, pip
    on_right = plays_at[right][hand & pip_mask[right]]
    n_left = len(on_left)
    n = n_left + len(on_right)
    k = int(random_() * n) if n > 1 else 0
    if k < n_left:
        bit, pip = on_left[k]
        return bit, pip, right
    bit, pip = on_right[k - n_left]
    return bit, left, pip
