"""The fast path's no-fit step (R14-R18), one for ``Position`` and the random loop.

A seat to act that holds no tile fitting the line's ends draws (R14, R16), passes (R15),
or, under ``draw_optional``, chooses to draw or to pass; the hand blocks when nobody can
play or draw (R18), when no unplayed tile fits (``stock_on_block``) or after a whole round
of passes (``draw_optional``). ``no_fit_step`` plays all of that on raw values.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    for seat, tiles in enumerate(hands):
        if not out or seat not in out:
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
            if not live_tiles(hands, out) & fit:
                return seat, drawn, passes, BLOCKED
        if optional and passes >= seats - len(out):
            return seat, drawn, passes, BLOCKED
        seat += 1
        if seat == seats:
            seat = 0
        while out and seat in out:
            seat = seat + 1 if seat + 1 < seats else 0
        hand = hands[seat]
