"""The fast path's random loop: a hand played to its end with uniformly random legal
actions, on raw values (R11-R18), and ``play_random_hands`` for benchmarks.

The loop takes the steps ``Position`` takes (``steps``): ``random_lead`` and
``random_play`` choose and place a tile (as ``dominoes.tiles.place`` places it, in
``Position.legal_plays`` order), ``no_fit_step`` draws, passes and blocks (R14-R18), and
``score._score`` scores the end. ``tests/engine/test_playout_matches_engine.py`` checks
its results against the engine's from every step of random hands of every profile; its
speed is ``python -m bench.engine_speed --no-pypi --no-main --baseline REV``.
"""

from __future__ import annotations

import random

from dominoes.playout.deal import _deal, _deal_plan, first_lead
from dominoes.playout.position import Position
from dominoes.playout.score import _score
from dominoes.playout.steps import BLOCKED, no_fit_step, plays_by_pip, random_lead, random_play
from dominoes.playout.tables import Tables, _teams, tables_for
from dominoes.rules import CLASSIC, Rules
from dominoes.seats import NEXT_SEATS
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
    pip_mask, nxt = tables.pip_mask, NEXT_SEATS[len(hands)]
    plays_at = plays_by_pip(tables.max_pip)
    optional, closer_rival = steps
    left, right = ends
    hand = hands[seat]
    if left < 0:  # the lead (R7-R10)
        tile = required if required >= 0 else random_lead(hand & lead_mask, random_)
        left, right = tables.pips[tile]
        low = 1 << tile
        hand ^= low
        hands[seat] = hand
        if not hand:
            return _DOMINO, seat, left, right, drawn, low
        seat = nxt[seat]
        hand = hands[seat]
    fit = pip_mask[left] | pip_mask[right]
    while True:  # a play (R11-R13), after the draws and passes of a seat that fits nothing
        if not hand & fit:  # the profile's draws, passes and blocks (R14-R18)
            seat, drawn, _, outcome = no_fit_step(
                hands, stock, drawn, seat, fit, passes, optional, closer_rival, random_
            )
            passes = 0  # the next no-fit step comes right after a play
            if outcome == BLOCKED:
                return _BLOCKED, seat, left, right, drawn, 0
            hand = hands[seat]
        low, left, right = random_play(plays_at, pip_mask, hand, left, right, random_)
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
