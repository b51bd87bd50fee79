"""The fast path's random loop: a hand played to its end with uniformly random legal
actions, on raw values (R11-R18), and ``play_random_hands`` for benchmarks.

A play is placed here as ``dominoes.tiles.place`` places it (the right end when both ends
show its pip), in bit-mask form: the k-th of the left-end plays, then of the right-end
ones, by tile index (``Position.legal_plays`` order). This form, and the inline classic
draws and passes (``steps.no_fit_step``'s R14-R18 without a call), are kept because
``bench/engine_speed.py`` measured the calls at 5-7% of a playout; for the same reason
``_run`` is the one function of ``dominoes`` over 60 lines (a shorter selection of the
play measured 4% slower, and splitting off the lead ~2%: one call more per hand).
"""

from __future__ import annotations

import random
from functools import cache

from dominoes.playout.deal import _deal, _deal_plan, first_lead
from dominoes.playout.position import Position
from dominoes.playout.score import _score
from dominoes.playout.steps import BLOCKED, no_fit_step
from dominoes.playout.tables import Tables, _teams, tables_for
from dominoes.rules import CLASSIC, Rules
from dominoes.state import HandEnd

_DOMINO = HandEnd.DOMINO
_BLOCKED = HandEnd.BLOCKED


def random_playout(
    position: Position, rng: random.Random
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """Play ``position`` to the end with uniformly random legal actions; return
    ``result()``.

    Mutates ``position`` (``copy()`` it first to keep it). Each action is
    ``legal_actions()[int(rng.random() * n)]`` of its ``n`` actions, drawing one
    ``rng.random()`` per action that has two or more choices and none for a forced one
    (so under ``draw_optional`` a seat ``choosing`` draws or passes with even odds), so a
    caller can replay the same choices through ``legal_actions``/``act`` (or
    ``dominoes.engine``). Same rules as ``Position.play`` (R11-R18), on raw values.
    """
    if position.end is not None:
        return position.result()
    if position.out:  # a seat left the hand (rare): the same choices, through act()
        while position.end is None:
            actions = position.legal_actions()
            n = len(actions)
            position.act(*actions[int(rng.random() * n) if n > 1 else 0])
        return position.result()
    hands = position.hands
    tables = position.tables
    rules = position.rules
    end, seat, left, right, position.drawn, last = _run(
        tables,
        hands,
        position.stock,
        position.drawn,
        position.turn,
        (position.left, position.right),
        position.required,
        rng.random,
        position.lead_mask,
        (rules.draw_optional, rules.stock_on_block is not None),
        position.passes if position.choosing else 0,  # else a play comes first
    )
    position.left, position.right = left, right
    position.turn = seat
    if last and left == right and rules.capicua_multiplier != 1 and not last & tables.doubles:
        position.capicua = True  # the last tile, not a double, fitted both ends (see _run)
    position.end, position.winners, position.points, position.counts = _score(
        rules, tables, hands, end, seat, position._teams, position.leader, position.capicua
    )
    return position.end, position.winners, position.points, position.counts


@cache
def _next_seat(seats: int) -> tuple[int, ...]:
    """``_next_seat(n)[s]``: the seat after ``s`` at a table of ``n`` (R3)."""
    return tuple(range(1, seats)) + (0,)


def _run(
    tables: Tables,
    hands: list[int],
    stock: tuple[int, ...],
    drawn: int,
    seat: int,
    ends: tuple[int, int],
    required: int,
    random_,
    lead_mask: int = -1,
    steps: tuple[bool, bool] = (False, False),
    passes: int = 0,
) -> tuple[HandEnd, int, int, int, int, int]:
    """The random playout loop over raw values (see ``random_playout``); mutates ``hands``.

    ``seat`` must hold a play (a settled position) or be choosing (``draw_optional``);
    ``ends``: ``(left, right)``, ``(-1, -1)`` before the lead; ``lead_mask``: the tiles that
    may lead when ``required`` is ``-1``; ``steps``: ``(draw_optional, stock_on_block is
    set)`` for ``steps.no_fit_step``; ``passes``: passes since the last play when ``seat``
    starts choosing (else ``0``). Returns ``(end, seat, left, right, drawn, last)``: how the
    hand ended, the seat that went out (domino) or was to act (blocked), the final ends,
    the stock tiles drawn, and the bit of the tile that went out (``0`` for a block): a
    domino by a non-double that leaves both ends equal is a capicúa.
    """
    pip_mask, other, nxt = tables.pip_mask, tables.other, _next_seat(len(hands))
    (optional, closer_rival), n_stock, hand = steps, len(stock), hands[seat]
    special = optional or closer_rival
    left, right = ends
    if left < 0:  # the lead (R7-R10)
        tile = required
        if tile < 0:
            choices = hand & lead_mask
            k = int(random_() * choices.bit_count()) if choices & (choices - 1) else 0
            while k:
                choices &= choices - 1
                k -= 1
            tile = (choices & -choices).bit_length() - 1
        left, right = tables.pips[tile]
        low = 1 << tile
        hand ^= low
        hands[seat] = hand
        if not hand:
            return _DOMINO, seat, left, right, drawn, low
        seat = nxt[seat]
        hand = hands[seat]
    fit = pip_mask[left] | pip_mask[right]
    while True:
        if not hand & fit:
            if special:  # the profile's draws, passes and blocks (R14-R18)
                seat, drawn, _, outcome = no_fit_step(
                    hands, stock, drawn, seat, fit, passes, optional, closer_rival, random_
                )
                passes = 0  # the next no-fit step comes right after a play
                if outcome == BLOCKED:
                    return _BLOCKED, seat, left, right, drawn, 0
                hand = hands[seat]
            else:  # no_fit_step's R14-R18 inline: calling it costs 5-7% here
                while drawn < n_stock:
                    bit = 1 << stock[drawn]
                    drawn += 1
                    hand |= bit
                    if bit & fit:
                        break
                if not hand & fit:  # no stock left: pass to the next seat that fits (R15)
                    hands[seat] = hand
                    start = seat
                    while True:
                        seat = nxt[seat]
                        if seat == start:  # nobody fits: blocked (R18)
                            return _BLOCKED, seat, left, right, drawn, 0
                        hand = hands[seat]
                        if hand & fit:
                            break
        # A play (R11-R13): the k-th of the left-end plays, then of the right-end ones.
        on_left = hand & pip_mask[left]
        if left == right:  # both ends show the pip: the engine places on the right
            if on_left & (on_left - 1):
                k = int(random_() * on_left.bit_count())
                while k:
                    on_left &= on_left - 1
                    k -= 1
            low = on_left & -on_left
            right = other[low.bit_length() - 1][right]
        else:
            on_right = hand & pip_mask[right]
            if not on_right:
                if on_left & (on_left - 1):
                    k = int(random_() * on_left.bit_count())
                    while k:
                        on_left &= on_left - 1
                        k -= 1
                low = on_left & -on_left
                left = other[low.bit_length() - 1][left]
            elif not on_left:
                if on_right & (on_right - 1):
                    k = int(random_() * on_right.bit_count())
                    while k:
                        on_right &= on_right - 1
                        k -= 1
                low = on_right & -on_right
                right = other[low.bit_length() - 1][right]
            else:
                n_left = on_left.bit_count()
                k = int(random_() * (n_left + on_right.bit_count()))
                if k < n_left:
                    while k:
                        on_left &= on_left - 1
                        k -= 1
                    low = on_left & -on_left
                    left = other[low.bit_length() - 1][left]
                else:
                    k -= n_left
                    while k:
                        on_right &= on_right - 1
                        k -= 1
                    low = on_right & -on_right
                    right = other[low.bit_length() - 1][right]
        hand ^= low
        hands[seat] = hand
        if not hand:
            return _DOMINO, seat, left, right, drawn, low
        fit = pip_mask[left] | pip_mask[right]
        seat = nxt[seat]
        hand = hands[seat]


def play_random_hands(
    seats: int, count: int, seed: int | None = None, rules: Rules = CLASSIC
) -> list[tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]]:
    """Deal and play ``count`` complete first hands of ``seats`` seats at random; return
    each hand's ``(end, winners, points, counts)``.

    Each hand: a ``random.Random(seed)`` shuffle (``random_deal``; NOT the service's
    CSPRNG deal, ``dominoes.deal``) with the profile's redeals, the first-hand lead
    (``first_lead``), then the ``random_playout`` loop; the same as
    ``random_playout(first_hand_position(rules, seats, *random_deal(rules, seats, rng),
    rng), rng)`` without building ``Position`` objects. Used by ``bench/engine_speed.py``.
    Raises ``ValueError`` for a seat count ``rules`` does not allow.
    """
    rng = random.Random(seed)
    random_ = rng.random
    getrandbits = rng.getrandbits
    tables = tables_for(rules.max_pip)
    doubles = tables.doubles
    plan = _deal_plan(rules, seats)
    teams = _teams(rules, seats)
    lead_mask = doubles if rules.first_lead == "double" else -1
    steps = (rules.draw_optional, rules.stock_on_block is not None)
    bonus = rules.capicua_multiplier != 1
    results = []
    append = results.append
    for _ in range(count):
        hands, stock = _deal(plan, getrandbits)
        leader, required = first_lead(tables, rules, hands, rng)
        end, seat, left, right, _, last = _run(
            tables, hands, stock, 0, leader, (-1, -1), required, random_, lead_mask, steps
        )
        capicua = bonus and last and left == right and not last & doubles
        append(_score(rules, tables, hands, end, seat, teams, leader, capicua))
    return results
