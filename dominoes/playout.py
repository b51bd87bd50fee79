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

``tests/engine/test_playout.py`` checks move for move that this module and
``dominoes.engine`` agree for every profile (legal plays and choices at every step, end,
winners, points, counts).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from dominoes.rules import CLASSIC, Rules
from dominoes.scoring import blocked_team, score_blocked, score_domino
from dominoes.state import Draw, HandEnd, HandResult, MatchState, Pass, Play
from dominoes.tiles import Tile, full_set

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
    "first_hand_position",
    "first_lead",
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

_DOMINO = HandEnd.DOMINO
_BLOCKED = HandEnd.BLOCKED

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


class Position:
    """One hand in play, with full information; mutable and owned by its creator.

    Plays every profile of ``dominoes.rules`` as ``dominoes.engine`` does.

    Fields (read them freely; change them only through the methods):

    - ``rules`` (``Rules``), ``seats`` (2, 3 or 4), ``tables`` (``Tables``);
    - ``hands``: ``list[int]``, one holding mask per seat;
    - ``stock``: ``tuple[int, ...]`` tile indices in draw order; ``drawn``: how many of
      them have been drawn (the remaining stock is ``stock[drawn:]``). Empty when
      ``rules.draw_from_stock`` is false (R14 off: undealt tiles stay out);
    - ``left``, ``right``: the line's end pips, ``-1`` before the lead (R11);
    - ``turn``: the seat to act. While the hand is on it holds a legal play (automatic
      draws and passes are already applied, R16), except under ``rules.draw_optional``
      where it may instead be choosing to draw or to pass (``choosing``); once the hand
      is over it is the seat that went out (domino) or the seat at which the block was
      found (the engine may show another seat there: do not rely on it);
      ``leader``: the hand's leader (``blocked_tie == "leader_team"`` reads it);
    - ``required``: the tile index the lead must be (R7-R9), ``-1`` for any tile (R10);
      ``lead_mask``: the tiles that may lead when ``required`` is ``-1`` (the doubles
      for ``first_lead == "double"``, else ``-1``: every tile);
    - ``passes``: passes since the last play (``draw_optional``: a whole round of them,
      as many as seats still playing, blocks the hand);
    - ``out``: the seats that left the hand (``Rules.leavers_sit_out``): their turns are
      skipped, their tiles (still in ``hands``) fit nothing and count for nobody;
    - ``end``: ``None`` while the hand is on, else ``HandEnd.DOMINO`` or ``HandEnd.BLOCKED``;
      then ``winners`` (sorted seat tuple, empty when nobody scored), ``points`` and
      ``counts`` (per-seat R19 counts) hold the result, and ``capicua`` is true when the
      domino was a capicúa under a profile with a capicúa bonus (``HandResult.capicua``).
      Under ``stock_on_block == "closer_rival"`` the stock's tiles are then in the rival's
      holding, as the engine counts them.

    Build one with ``from_match`` or ``from_holdings``; ``copy()`` before mutating a
    position someone else still needs.
    """

    __slots__ = (
        "rules",
        "seats",
        "tables",
        "hands",
        "stock",
        "drawn",
        "left",
        "right",
        "turn",
        "leader",
        "required",
        "lead_mask",
        "passes",
        "end",
        "winners",
        "points",
        "counts",
        "capicua",
        "out",
        "_teams",
    )

    # --- construction --------------------------------------------------------------------

    @classmethod
    def _blank(cls, rules: Rules, seats: int) -> Position:
        pos = cls.__new__(cls)
        pos.rules = rules
        pos.seats = seats
        pos.tables = tables = tables_for(rules.max_pip)
        pos.drawn = 0
        pos.required = -1
        pos.lead_mask = tables.doubles if rules.first_lead == "double" else -1
        pos.passes = 0
        pos.end = None
        pos.winners = ()
        pos.points = 0
        pos.counts = ()
        pos.capicua = False
        pos.out = ()
        pos._teams = _teams(rules, seats)
        return pos

    @classmethod
    def from_holdings(
        cls,
        rules: Rules,
        seats: int,
        holdings: Sequence[Sequence[Tile]],
        stock: Sequence[Tile],
        line_ends: tuple[int, int] | None,
        turn: int,
        leader: int,
        required_lead: Tile | None,
        passes: int = 0,
        out: Sequence[int] = (),
    ) -> Position:
        """A position from explicit holdings, e.g. one determinization of a bot's view.

        ``holdings[s]``: seat ``s``'s tiles (any order); ``stock``: the *remaining* stock in
        draw order (top first); ``line_ends``: ``(left, right)`` pips, or ``None`` before
        the lead; ``turn``: the seat to act; ``leader``: the hand's leader;
        ``required_lead``: the tile the lead must be (R7-R9) or ``None``; ``passes``: the
        passes since the last play (read only under ``draw_optional``); ``out``: the seats
        that left the hand (``HandState.out_seats``). Tiles already on
        the line are simply absent. If the seat to act has no fitting tile, its automatic
        draws/passes (R14-R16) are applied at once (under ``draw_optional`` with stock
        left it is left choosing), and the hand is ended when it is blocked (R18),
        exactly as ``dominoes.engine.advance`` would.

        Raises ``ValueError`` for a seat count the rules do not allow, a repeated tile, a
        bad seat index, or an empty holding (a hand already won by domino).
        """
        if seats not in rules.seat_counts or len(holdings) != seats:
            raise ValueError(f"{len(holdings)} holdings for a {seats}-seat table")
        if not (0 <= turn < seats and 0 <= leader < seats):
            raise ValueError(f"turn {turn} / leader {leader} is not a seat of {seats}")
        pos = cls._blank(rules, seats)
        index = pos.tables.index
        seen = 0
        hands = []
        for tiles in holdings:
            mask = 0
            for tile in tiles:
                bit = 1 << index[tile]
                if seen & bit:
                    raise ValueError(f"{tile} appears twice")
                seen |= bit
                mask |= bit
            if not mask:
                raise ValueError("an empty holding: that hand is already over (R17)")
            hands.append(mask)
        stock_indices = []
        for tile in stock:
            i = index[tile]
            if seen >> i & 1:
                raise ValueError(f"{tile} appears twice")
            seen |= 1 << i
            stock_indices.append(i)
        pos.hands = hands
        pos.stock = tuple(stock_indices) if rules.draw_from_stock else ()
        if line_ends is None:
            pos.left = pos.right = -1
        else:
            pos.left, pos.right = line_ends
        pos.turn = turn
        pos.leader = leader
        pos.required = index[required_lead] if required_lead is not None else -1
        pos.passes = passes
        pos._sit_out(tuple(out))
        if pos.left >= 0:
            pos._settle(turn)
        return pos

    @classmethod
    def from_match(cls, match: MatchState) -> Position:
        """The current hand of ``match`` (a ``dominoes.state.MatchState``), full information.

        A finished hand gives a finished position carrying the engine's result. Before a
        lead a pair chooses (``HandState.lead_seats``) the position's ``turn`` is the
        engine's ``turn``, the first of those seats.
        """
        hand = match.hand
        rules = match.rules
        pos = cls._blank(rules, match.seats)
        index = pos.tables.index
        pos.hands = [_mask(tiles, index) for tiles in hand.holdings]
        remaining = hand.stock[hand.drawn :] if rules.draw_from_stock else ()
        pos.stock = tuple(index[tile] for tile in remaining)
        if hand.ends is None:
            pos.left = pos.right = -1
        else:
            pos.left, pos.right = hand.ends
        pos.turn = hand.turn
        pos.leader = hand.leader
        pos.required = index[hand.required_lead] if hand.required_lead is not None else -1
        passes = 0
        for action in reversed(hand.actions):
            if isinstance(action, Play):
                break
            passes += isinstance(action, Pass) and action.seat not in hand.out_seats
        pos.passes = passes
        pos._sit_out(hand.out_seats)
        if hand.result is not None:
            result = hand.result
            pos.end = result.end
            pos.winners = result.winners
            pos.points = result.points
            pos.counts = result.counts
            pos.capicua = result.capicua
        elif pos.left >= 0:
            pos._settle(pos.turn)
        return pos

    def copy(self) -> Position:
        """An independent copy (holdings list copied; tables, rules and stock are shared,
        read-only)."""
        new = Position.__new__(Position)
        new.rules = self.rules
        new.seats = self.seats
        new.tables = self.tables
        new.hands = self.hands[:]
        new.stock = self.stock
        new.drawn = self.drawn
        new.left = self.left
        new.right = self.right
        new.turn = self.turn
        new.leader = self.leader
        new.required = self.required
        new.lead_mask = self.lead_mask
        new.passes = self.passes
        new.end = self.end
        new.winners = self.winners
        new.points = self.points
        new.counts = self.counts
        new.capicua = self.capicua
        new.out = self.out
        new._teams = self._teams
        return new

    def _sit_out(self, out: tuple[int, ...]) -> None:
        """Mark the seats ``out`` as gone from the hand; before the lead a seat to act that
        holds no double may lead any tile (``engine._lead_must_be_double``)."""
        self.out = out
        if out and self.left < 0 and not self.hands[self.turn] & self.lead_mask:
            self.lead_mask = -1

    def _next(self, seat: int) -> int:
        """The seat after ``seat`` still playing (R3)."""
        seat += 1
        if seat == self.seats:
            seat = 0
        while seat in self.out:
            seat += 1
            if seat == self.seats:
                seat = 0
        return seat

    # --- reading -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand has ended (domino R17 or blocked R18)."""
        return self.end is not None

    @property
    def ends(self) -> tuple[int, int] | None:
        """``(left, right)`` like ``HandState.ends``, ``None`` before the lead."""
        return None if self.left < 0 else (self.left, self.right)

    @property
    def stock_left(self) -> int:
        """How many tiles remain in the stock."""
        return len(self.stock) - self.drawn

    @property
    def choosing(self) -> bool:
        """True when the seat to act holds no fitting tile and chooses to draw or to pass
        (``rules.draw_optional`` with stock left; ``engine.optional_actions``)."""
        if self.end is not None or self.left < 0:
            return False
        pip_mask = self.tables.pip_mask
        return not self.hands[self.turn] & (pip_mask[self.left] | pip_mask[self.right])

    def remaining_stock(self) -> tuple[int, ...]:
        """The tile indices still in the stock, top (next drawn) first."""
        return self.stock[self.drawn :]

    def tile_counts(self) -> tuple[int, ...]:
        """How many tiles each seat holds (public information, R31)."""
        return tuple(mask.bit_count() for mask in self.hands)

    def pip_counts(self) -> tuple[int, ...]:
        """Each seat's count now: summed values of the tiles it holds (R19)."""
        value = self.tables.mask_value
        return tuple(value(mask) for mask in self.hands)

    def holding(self, seat: int) -> list[Tile]:
        """Seat ``seat``'s tiles as ``Tile`` values, heaviest first (like ``holdings``)."""
        return tiles_of(self.hands[seat], self.tables.max_pip)

    def legal_plays(self) -> list[tuple[int, int]]:
        """Every play of the seat to act as ``(tile_index, end_pip)`` pairs (R11-R13).

        ``end_pip`` is ``-1`` for the lead (only doubles under ``first_lead == "double"``).
        A tile fitting both ends appears once per end, once only when both ends show the
        same pip (R12). Order: the lead tiles by index; otherwise the tiles fitting the
        left end by index, then those fitting the right end by index. Empty once the hand
        is over, and while the seat is ``choosing`` (like ``engine.legal_moves``).
        """
        if self.end is not None:
            return []
        hand = self.hands[self.turn]
        left = self.left
        if left < 0:
            if self.required >= 0:
                return [(self.required, -1)]
            return [(t, -1) for t in _indices(hand & self.lead_mask)]
        right = self.right
        pip_mask = self.tables.pip_mask
        plays = [(t, left) for t in _indices(hand & pip_mask[left])]
        if right != left:
            plays += [(t, right) for t in _indices(hand & pip_mask[right])]
        return plays

    def legal_actions(self) -> list[tuple[int, int]]:
        """``legal_plays()``, or ``[(DRAW, -1), (PASS, -1)]`` while the seat is
        ``choosing`` (the engine's ``optional_actions``, same order). Feed any of them to
        ``act``. Empty once the hand is over."""
        plays = self.legal_plays()
        if plays or not self.choosing:
            return plays
        return [(DRAW, -1), (PASS, -1)]

    def engine_play(self, tile: int, end: int) -> Play:
        """The ``dominoes.state.Play`` for the seat to act playing ``(tile, end)`` (one of
        ``legal_plays()``), to hand to ``dominoes.engine.play_turn``."""
        return Play(self.turn, self.tables.tiles[tile], None if end < 0 else end)

    def engine_action(self, tile: int, end: int) -> Play | Draw | Pass:
        """The engine action for one of ``legal_actions()``: a ``Play``, or the ``Draw`` of
        the stock's top tile / the ``Pass`` of the seat to act."""
        if tile == DRAW:
            return Draw(self.turn, self.tables.tiles[self.stock[self.drawn]])
        if tile == PASS:
            return Pass(self.turn)
        return self.engine_play(tile, end)

    def result(self) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]] | None:
        """``(end, winners, points, counts)`` exactly as ``dominoes.scoring`` scores the
        hand (R19-R24, every profile's scoring fields), or ``None`` while it is on."""
        if self.end is None:
            return None
        return self.end, self.winners, self.points, self.counts

    def hand_result(self) -> HandResult | None:
        """The result as a ``dominoes.state.HandResult``, or ``None`` while the hand is on."""
        if self.end is None:
            return None
        return HandResult(self.end, self.winners, self.points, self.counts, self.capicua)

    # --- playing -------------------------------------------------------------------------

    def act(self, tile: int, end: int = -1) -> None:
        """Take one of ``legal_actions()``: ``play(tile, end)``, or ``draw()`` for
        ``tile == DRAW``, ``pass_turn()`` for ``tile == PASS``."""
        if tile >= 0:
            self.play(tile, end)
        elif tile == DRAW:
            self.draw()
        elif tile == PASS:
            self.pass_turn()
        else:
            raise ValueError(f"not an action: {tile}")

    def play(self, tile: int, end: int = -1) -> None:
        """The seat to act plays ``tile`` on the end showing pip ``end`` (``-1``: the lead),
        then the following seats' automatic draws and passes are applied (R14-R16) until a
        seat holds a play (or, under ``draw_optional``, chooses) or the hand ends by
        domino (R17, capicúa bonus included) or block (R18, ``stock_on_block``).
        Changes this position in place.

        Raises ``ValueError`` when the hand is over, the seat does not hold ``tile``, or
        the play is not one of ``legal_plays()`` (wrong lead R7, no fit at that end).
        When both ends show ``end`` the tile goes on the right, as the engine places it.
        """
        if self.end is not None:
            raise ValueError("the hand is over")
        seat = self.turn
        bit = 1 << tile
        hand = self.hands[seat]
        if not hand & bit:
            raise ValueError(f"seat {seat} does not hold tile {tile}")
        left = self.left
        right = self.right
        if left < 0:
            if (
                end != -1
                or (self.required >= 0 and tile != self.required)
                or not self.lead_mask & bit
            ):
                raise ValueError(f"tile {tile} (end {end}) is not a legal lead")
            self.left, self.right = self.tables.pips[tile]
        else:
            other = self.tables.other[tile]
            if end == right and other[right] >= 0:
                self.right = other[right]
            elif end == left and other[left] >= 0:
                self.left = other[left]
            else:
                raise ValueError(f"tile {tile} does not fit an end showing {end}")
        hand ^= bit
        self.hands[seat] = hand
        self.passes = 0
        if not hand:
            if left >= 0 and left != right and self.rules.capicua_multiplier != 1:
                other = self.tables.other[tile]
                self.capicua = other[left] >= 0 and other[right] >= 0
            self._finish(_DOMINO, seat)
            return
        if self.out:
            self._settle(self._next(seat))
            return
        seat += 1
        self._settle(0 if seat == self.seats else seat)

    def draw(self) -> None:
        """The seat to act, ``choosing``, draws the stock's top tile (``draw_optional``);
        then it plays, chooses again, or passes automatically on an empty stock, as the
        engine's ``advance`` goes on. Raises ``ValueError`` when it may not draw."""
        if not self.choosing:
            raise ValueError("the seat to act may not draw now")
        seat = self.turn
        self.hands[seat] |= 1 << self.stock[self.drawn]
        self.drawn += 1
        self._settle(seat)

    def pass_turn(self) -> None:
        """The seat to act, ``choosing``, passes with stock left (``draw_optional``); a
        whole round of passes blocks the hand. Raises ``ValueError`` when it may not pass
        by choice (it holds a play, or the pass is automatic)."""
        if not self.choosing:
            raise ValueError("the seat to act may not pass now")
        self.passes += 1
        if self.passes >= self.seats - len(self.out):
            self._finish(_BLOCKED, -1)
            return
        self._settle(self._next(self.turn))

    def _settle(self, seat: int) -> None:
        """From ``seat`` on, apply automatic draws and passes (R14-R16) until a seat fits
        (or chooses, ``draw_optional``), or end the hand when it is blocked (R18, also
        ``stock_on_block`` and a whole round of passes). Ends must be set."""
        hands = self.hands
        pip_mask = self.tables.pip_mask
        fit = pip_mask[self.left] | pip_mask[self.right]
        if hands[seat] & fit:
            self.turn = seat
            return
        rules = self.rules
        stock = self.stock
        drawn = self.drawn
        n_stock = len(stock)
        seats = self.seats
        out = self.out
        playing = seats - len(out)
        while True:
            hand = hands[seat]
            if hand & fit:
                self.turn = seat
                return
            if drawn < n_stock:
                if rules.stock_on_block is not None:
                    # The condition can only arise right after a play, by the seat before.
                    rest = _stock_block(hands, stock, drawn, fit)
                    if rest:
                        hands[seat] = hand | rest
                        self.drawn = n_stock
                        self.turn = seat
                        self._finish(_BLOCKED, -1)
                        return
                if rules.draw_optional:
                    self.turn = seat  # its choice: draw() or pass_turn()
                    return
                hand, drawn = _draw_to_fit(stock, drawn, hand, fit)
                hands[seat] = hand
                self.drawn = drawn
                if hand & fit:
                    self.turn = seat
                    return
            # The stock is empty and this seat passes (R15), unless nobody fits (R18).
            self.passes += 1
            anyone = 0
            for hand in hands:
                anyone |= hand
            if out:  # the tiles of seats that left fit nothing
                anyone = 0
                for held, hand in enumerate(hands):
                    if held not in out:
                        anyone |= hand
            if not anyone & fit or (rules.draw_optional and self.passes >= playing):
                self.turn = seat
                self._finish(_BLOCKED, -1)
                return
            seat = self._next(seat) if out else seat + 1
            if seat == seats:
                seat = 0

    def _finish(self, end: HandEnd, seat: int) -> None:
        self.end, self.winners, self.points, self.counts = _score(
            self.rules,
            self.tables,
            self.hands,
            end,
            seat,
            self._teams,
            self.leader,
            self.capicua,
            self.out,
        )


# --- helpers -----------------------------------------------------------------------------


def _stock_block(hands: list[int], stock: Sequence[int], drawn: int, fit: int) -> int:
    """``stock_on_block``: with stock left (``drawn < len(stock)``), the mask of the
    undrawn tiles when no unplayed tile (held or in the stock) fits ``fit``: the hand is
    blocked now and those tiles join the count of the seat to act, the closer's rival.
    ``0`` while some tile fits. Shared by ``Position._settle`` and ``_resolver``."""
    rest = 0
    for t in stock[drawn:]:
        rest |= 1 << t
    anyone = rest
    for held in hands:
        anyone |= held
    return 0 if anyone & fit else rest


def _draw_to_fit(stock: Sequence[int], drawn: int, hand: int, fit: int) -> tuple[int, int]:
    """The automatic draws (R14): add stock tiles to ``hand`` from ``stock[drawn]`` on
    until one fits ``fit`` or the stock runs out; returns ``(hand, drawn)``. ``_run`` and
    ``_resolver`` keep inline copies of this loop: there the call cost ~2% of a playout."""
    n_stock = len(stock)
    while drawn < n_stock:
        bit = 1 << stock[drawn]
        drawn += 1
        hand |= bit
        if bit & fit:
            break
    return hand, drawn


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
    return tuple(tuple(s for s in range(seats) if s % 2 == seat % 2) for seat in range(seats))


def score_hands(
    rules: Rules,
    hands: Sequence[int],
    end: HandEnd,
    seat: int = -1,
    leader: int = -1,
    capicua: bool = False,
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """Score final holding masks ``hands`` as ``dominoes.scoring`` would (R19-R24):
    ``end`` is ``HandEnd.DOMINO`` (then ``seat`` is the seat that went out, R20, and
    ``capicua`` says the last tile made a capicúa, ``rules.capicua_multiplier``) or
    ``HandEnd.BLOCKED`` (R21-R23, ``blocked_points``; ``leader``, the hand's leader or
    ``-1`` for none, settles a tie under ``blocked_tie == "leader_team"``). Returns
    ``(end, winners, points, counts)``."""
    end = HandEnd(end)
    teams = _teams(rules, len(hands))
    return _score(rules, tables_for(rules.max_pip), hands, end, seat, teams, leader, capicua)


def _score(
    rules: Rules,
    tables: Tables,
    hands: Sequence[int],
    end: HandEnd,
    seat: int,
    teams: tuple[tuple[int, ...], ...] | None,
    leader: int = -1,
    capicua: bool = False,
    out: tuple[int, ...] = (),
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """``(end, winners, points, counts)`` as ``dominoes.scoring`` computes it (R19-R24).

    ``seat``: the seat that went out for a domino (ignored for a block); ``leader``: the
    hand's leader (``-1``: none); ``capicua``: the domino was a capicúa; ``out``: the
    seats that left the hand (rare: scored by ``dominoes.scoring`` itself)."""
    if out:
        holdings = [tiles_of(mask, tables.max_pip) for mask in hands]
        if end is _DOMINO:
            result = score_domino(rules, holdings, seat, capicua, out)
        else:
            result = score_blocked(rules, holdings, leader if leader >= 0 else None, out)
        return result.end, result.winners, result.points, result.counts
    chunks = tables.value_chunks
    if len(chunks) == 2:  # the double-six set: 28 tiles in two 14-bit chunks
        low, high = chunks
        counts = tuple([low[m & 16383] + high[m >> 14] for m in hands])
    else:
        counts = tuple([tables.mask_value(m) for m in hands])
    total = sum(counts)
    if end is _DOMINO:  # R17, R20
        if teams is None:
            winners = (seat,)
            points = total if rules.partner_tiles_count else total - counts[seat]
        else:
            winners = teams[seat]
            if rules.partner_tiles_count:
                points = total
            else:
                points = total - counts[winners[0]] - counts[winners[1]]
        if capicua:
            points *= rules.capicua_multiplier
        return end, winners, points, counts
    if teams is not None:  # R22
        if rules.blocked_pairs == "lower_total" and rules.blocked_tie == "nobody":
            team0 = counts[0] + counts[2]
            team1 = total - team0
            if team0 == team1:
                return end, (), 0, counts
            winners = teams[0] if team0 < team1 else teams[1]
        else:
            team = blocked_team(rules, counts, leader if leader >= 0 else None)
            if team is None:
                return end, (), 0, counts
            winners = teams[team]
        if rules.partner_tiles_count:
            return end, winners, total, counts
        return end, winners, total - counts[winners[0]] - counts[winners[1]], counts
    lowest = min(counts)  # R21, R23
    tied = [s for s, count in enumerate(counts) if count == lowest]
    if len(tied) == 1:
        winner = tied[0]
    else:
        value = tables.value
        keys = {s: sorted(value[t] for t in _indices(hands[s])) for s in tied}
        best = min(keys.values())
        leaders = [s for s in tied if keys[s] == best]
        if len(leaders) != 1:
            return end, (), 0, counts
        winner = leaders[0]
    if rules.blocked_points == "differences":
        points = total - len(counts) * lowest
        if not points:
            return end, (), 0, counts
        return end, (winner,), points, counts
    return end, (winner,), total - lowest, counts


# --- random playouts ---------------------------------------------------------------------


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
    ``dominoes.engine``). Same rules as ``Position.play`` (R11-R18), inlined for speed.
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
        position.seats,
        position.turn,
        position.left,
        position.right,
        position.required,
        rng.random,
        position.lead_mask,
        _resolver(rules),
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


@cache
def _resolver(rules: Rules):
    """The no-fit step of ``_run`` for the profiles whose draws, passes or blocks differ
    from R14-R18 (``draw_optional``, ``stock_on_block``), ``None`` for the others.

    ``resolve(hands, stock, drawn, seats, seat, fit, passes, random_)``: ``seat`` holds no
    tile fitting ``fit`` (the mask of both ends) and ``passes`` is the passes since the
    last play. Plays the draws and passes (a ``draw_optional`` choice is a draw when
    ``random_() < 0.5``, i.e. ``legal_actions()[int(random_() * 2)]``) until a seat fits
    or the hand blocks, as ``Position._settle``/``draw``/``pass_turn`` do; mutates
    ``hands``. Returns ``(seat, drawn, blocked)``."""
    optional = rules.draw_optional
    closer_rival = rules.stock_on_block is not None
    if not (optional or closer_rival):
        return None

    def resolve(hands, stock, drawn, seats, seat, fit, passes, random_):
        n_stock = len(stock)
        hand = hands[seat]
        while True:
            if hand & fit:
                hands[seat] = hand
                return seat, drawn, False
            if drawn < n_stock:
                if closer_rival:
                    rest = _stock_block(hands, stock, drawn, fit)
                    if rest:
                        hands[seat] = hand | rest
                        return seat, n_stock, True
                if not optional:
                    while drawn < n_stock:  # _draw_to_fit, inline (hot)
                        bit = 1 << stock[drawn]
                        drawn += 1
                        hand |= bit
                        if bit & fit:
                            break
                    continue
                if random_() < 0.5:
                    hand |= 1 << stock[drawn]
                    drawn += 1
                    continue
            hands[seat] = hand
            passes += 1
            if drawn == n_stock:
                anyone = 0
                for held in hands:
                    anyone |= held
                if not anyone & fit:
                    return seat, drawn, True
            if optional and passes >= seats:
                return seat, drawn, True
            seat += 1
            if seat == seats:
                seat = 0
            hand = hands[seat]

    return resolve


def _run(
    tables: Tables,
    hands: list[int],
    stock: tuple[int, ...],
    drawn: int,
    seats: int,
    seat: int,
    left: int,
    right: int,
    required: int,
    random_,
    lead_mask: int = -1,
    resolve=None,
    passes: int = 0,
) -> tuple[HandEnd, int, int, int, int, int]:
    """The random playout loop over raw values (see ``random_playout``); mutates ``hands``.

    ``seat`` must hold a play (a settled position) or be choosing (``draw_optional``).
    ``lead_mask``: the tiles that may lead when ``required`` is ``-1``; ``resolve``: the
    profile's no-fit step (``_resolver``), ``None`` for R14-R18; ``passes``: passes since
    the last play when ``seat`` starts choosing (else ``0``). Returns ``(end, seat, left,
    right, drawn, last)``: how the hand ended, the seat that went out (domino) or was to
    act (blocked), the final ends, the number of stock tiles drawn, and the bit of the
    tile that went out (``0`` for a block): a domino by a non-double that leaves both
    ends equal is a capicúa.
    """
    pip_mask = tables.pip_mask
    other = tables.other
    n_stock = len(stock)
    nxt = _next_seat(seats)
    hand = hands[seat]
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
        # Here ``hand`` is ``hands[seat]`` and ``fit`` the mask fitting either end. First the
        # automatic draws and passes (R14-R16) and the block (R18).
        if not hand & fit:
            if resolve is not None:
                seat, drawn, blocked = resolve(
                    hands, stock, drawn, seats, seat, fit, passes, random_
                )
                passes = 0  # the next no-fit step comes right after a play
                if blocked:
                    return _BLOCKED, seat, left, right, drawn, 0
                hand = hands[seat]
            else:
                while drawn < n_stock:
                    bit = 1 << stock[drawn]
                    drawn += 1
                    hand |= bit
                    if bit & fit:
                        break
                if not hand & fit:
                    # No fit and no stock: pass (R15) to the next seat that fits; when
                    # none does, the hand is blocked (R18).
                    hands[seat] = hand
                    start = seat
                    while True:
                        seat = nxt[seat]
                        if seat == start:
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


# --- fast random deals -------------------------------------------------------------------


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
        j = x % k
        x //= k
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
            j = x % k
            x //= k
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
    lead = rules.first_lead
    if lead == "any":
        return 0, -1
    if lead == "lot":
        if rng is None:
            raise ValueError("a first lead by lot needs an rng")
        return int(rng.random() * len(hands)), -1
    dealt = 0
    for mask in hands:
        dealt |= mask
    doubles = dealt & tables.doubles
    if doubles:  # R7, R8: the highest double has the lowest index
        bit = doubles & -doubles
    else:  # R9
        for tile in tables.heavy_order:
            bit = 1 << tile
            if dealt & bit:
                break
    seat = 0
    for mask in hands:
        if mask & bit:
            return seat, (-1 if lead == "double" else bit.bit_length() - 1)
        seat += 1
    raise AssertionError("unreachable: the lead tile was dealt")


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
    resolve = _resolver(rules)
    bonus = rules.capicua_multiplier != 1
    results = []
    append = results.append
    for _ in range(count):
        hands, stock = _deal(plan, getrandbits)
        leader, required = first_lead(tables, rules, hands, rng)
        end, seat, left, right, _, last = _run(
            tables, hands, stock, 0, seats, leader, -1, -1, required, random_, lead_mask, resolve
        )
        capicua = bonus and last and left == right and not last & doubles
        append(_score(rules, tables, hands, end, seat, teams, leader, capicua))
    return results
