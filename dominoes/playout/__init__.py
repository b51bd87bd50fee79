"""A fast, mutable playout path for one hand with full information (for bots and benchmarks).

``dominoes.engine`` is the reference: immutable states, every action validated and
recorded. This module plays the *same rules* (R11-R23, and every profile of
``dominoes.rules``: its set and excluded tiles, tiles per seat, leads, blocks with
``stock_on_block``, ``draw_optional``, and every scoring field) an order of magnitude
faster, for code that plays thousands of hands (bot simulations, benchmarks). It records
no move log and no line (only its two ends), and it is not how the service deals: its
``play_random_hands`` shuffles with ``random.Random``, not the seeded CSPRNG deal of
``dominoes.deal`` (R6).

Under ``rules.draw_optional`` (``first_double``) a seat with no fitting tile and stock left
chooses to draw or to pass, as ``dominoes.engine.optional_actions`` offers: the position
then waits (``Position.choosing``), ``legal_plays()`` is empty and ``legal_actions()`` is
``[(DRAW, -1), (PASS, -1)]``; ``Position.act`` (or ``draw``/``pass_turn``) takes the choice.
The hand also blocks after a whole round of passes, as in the engine.

Representation:

- a *tile* is an index ``0..N-1`` into ``full_set(max_pip)`` (heaviest first: for the
  double-six set ``0`` is ``6-6``, ``1`` is ``6-5`` ... ``27`` is ``0-0``; ``N`` is 28);
- a *holding* is a bit mask: bit ``i`` set when the seat holds tile ``i``;
- an *end* is a pip ``0..max_pip``; ``-1`` stands for "no end": the lead.

Tables (``Tables``, one per ``max_pip``; the double-six ones are also module constants):
``PIP_MASK[p]`` the mask of the tiles showing pip ``p``; ``OTHER[t][p]`` the other pip of
tile ``t`` placed on an end showing ``p`` (``-1`` when ``t`` does not show ``p``);
``PIPS[t]`` ``(high, low)``; ``VALUE[t]`` ``high + low`` (R1); ``DOUBLES`` the mask of the
doubles; ``TILES[t]`` the ``Tile``; ``TILE_INDEX[tile]`` its index.

``Position`` is one hand, mutable and owned by whoever made it: ``play`` changes it in
place; ``copy()`` first when a caller needs the position afterwards. Typical use::

    pos = Position.from_match(match)          # or Position.from_holdings(...)
    for tile, end in pos.legal_actions():     # plays, or (DRAW, -1)/(PASS, -1)
        child = pos.copy()
        child.act(tile, end)
        result = random_playout(child, rng)   # (end, winners, points, counts)

``tests/engine/test_playout_agrees_with_engine.py`` checks move for move that this module and
``dominoes.engine`` agree for every profile (legal plays and choices at every step, end,
winners, points, counts), and ``tests/engine/test_playout_matches_engine.py`` that the
random loop and the greedy rollout end every step of random hands as the engine does.

The package: ``tables`` (lookup tables), ``steps`` (the no-fit step R14-R18, the random
lead and play), ``score`` (R19-R24), ``position`` and ``moves`` (``Position``), ``run``
(the random loop), ``greedy`` (the bots' quick policy, ``greedy_playout``), ``deal``
(random deals and first leads).
"""

from __future__ import annotations

from dominoes.playout.deal import first_hand_position, first_lead, random_deal, random_order
from dominoes.playout.greedy import greedy_playout
from dominoes.playout.position import Position
from dominoes.playout.run import play_random_hands, random_playout
from dominoes.playout.score import score_hands
from dominoes.playout.tables import (
    DOUBLES,
    DRAW,
    OTHER,
    PASS,
    PIP_MASK,
    PIPS,
    TILE_INDEX,
    TILES,
    VALUE,
    Tables,
    ends_after,
    mask_of,
    tables_for,
    tiles_of,
    unsupported,
)

__all__ = [
    "DOUBLES",
    "DRAW",
    "PASS",
    "OTHER",
    "PIPS",
    "PIP_MASK",
    "TILES",
    "TILE_INDEX",
    "VALUE",
    "Position",
    "Tables",
    "ends_after",
    "first_hand_position",
    "first_lead",
    "greedy_playout",
    "mask_of",
    "play_random_hands",
    "random_deal",
    "random_order",
    "random_playout",
    "score_hands",
    "tables_for",
    "tiles_of",
    "unsupported",
]
