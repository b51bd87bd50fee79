"""A fast, mutable playout path for one hand with full information (for bots and benchmarks).

``dominoes.engine`` is the reference: immutable states, every action validated and
recorded. This module plays the *same rules* (R11-R23) an order of magnitude faster, for
code that plays thousands of hands (bot simulations, benchmarks). It records no move log
and no line (only its two ends), and it is not how the service deals: its
``play_random_hands`` shuffles with ``random.Random``, not the seeded CSPRNG deal of
``dominoes.deal`` (R6).

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
    for tile, end in pos.legal_plays():
        child = pos.copy()
        child.play(tile, end)
        result = random_playout(child, rng)   # (end, winners, points, counts)

``tests/engine/test_playout.py`` checks move for move that this module and
``dominoes.engine`` agree (legal plays at every step, end, winners, points, counts).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from dominoes.rules import CLASSIC, Rules
from dominoes.state import HandEnd, HandResult, MatchState, Play
from dominoes.tiles import Tile, full_set

__all__ = [
    "DOUBLES",
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
    """Why this fast path cannot play ``rules``, or ``None`` when it can.

    It plays the double-six set (all 28 tiles) with the classic turn, block and scoring
    rules (R11-R23), partnerships, ``partner_tiles_count`` and ``draw_from_stock`` included;
    the profile fields it does not implement (docs/profiles.md) are refused."""
    reasons = []
    if rules.max_pip != 6 or rules.excluded_tiles:
        reasons.append("a set other than the 28 double-six tiles")
    if rules.draw_optional:
        reasons.append("optional drawing")
    if rules.stock_on_block is not None:
        reasons.append("the stock going to the closer's rival on a block")
    if rules.blocked_points != "others":
        reasons.append(f"blocked_points={rules.blocked_points!r}")
    if rules.blocked_tie != "nobody":
        reasons.append(f"blocked_tie={rules.blocked_tie!r}")
    if rules.capicua_multiplier != 1:
        reasons.append("the capicúa bonus")
    if not reasons:
        return None
    return f"the fast playout path cannot play {rules.name!r}: " + ", ".join(reasons)


def _check(rules: Rules) -> None:
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(reason)


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

    Refuses (``ValueError``) a profile it cannot play: see ``unsupported``.

    Fields (read them freely; change them only through the methods):

    - ``rules`` (``Rules``), ``seats`` (2, 3 or 4), ``tables`` (``Tables``);
    - ``hands``: ``list[int]``, one holding mask per seat;
    - ``stock``: ``tuple[int, ...]`` tile indices in draw order; ``drawn``: how many of
      them have been drawn (the remaining stock is ``stock[drawn:]``). Empty when
      ``rules.draw_from_stock`` is false (R14 off: undealt tiles stay out);
    - ``left``, ``right``: the line's end pips, ``-1`` before the lead (R11);
    - ``turn``: the seat to act, always one holding a legal play while the hand is on
      (automatic draws and passes are already applied, R16); once the hand is over it is
      the seat that went out (domino) or the seat at which the block was found (the engine
      may show another seat there: do not rely on it); ``leader``: the hand's leader;
    - ``required``: the tile index the lead must be (R7-R9), ``-1`` for any tile (R10);
    - ``end``: ``None`` while the hand is on, else ``HandEnd.DOMINO`` or ``HandEnd.BLOCKED``;
      then ``winners`` (sorted seat tuple, empty when nobody scored), ``points`` and
      ``counts`` (per-seat R19 counts) hold the result.

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
        "end",
        "winners",
        "points",
        "counts",
        "_teams",
    )

    # --- construction --------------------------------------------------------------------

    @classmethod
    def _blank(cls, rules: Rules, seats: int) -> Position:
        _check(rules)
        pos = cls.__new__(cls)
        pos.rules = rules
        pos.seats = seats
        pos.tables = tables_for(rules.max_pip)
        pos.drawn = 0
        pos.end = None
        pos.winners = ()
        pos.points = 0
        pos.counts = ()
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
    ) -> Position:
        """A position from explicit holdings, e.g. one determinization of a bot's view.

        ``holdings[s]``: seat ``s``'s tiles (any order); ``stock``: the *remaining* stock in
        draw order (top first); ``line_ends``: ``(left, right)`` pips, or ``None`` before
        the lead; ``turn``: the seat to act; ``leader``: the hand's leader;
        ``required_lead``: the tile the lead must be (R7-R9) or ``None``. Tiles already on
        the line are simply absent. If the seat to act has no fitting tile, its automatic
        draws/passes (R14-R16) are applied at once, and the hand is ended when it is
        blocked (R18), exactly as ``dominoes.engine.advance`` would.

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
        if pos.left >= 0:
            pos._settle(turn)
        return pos

    @classmethod
    def from_match(cls, match: MatchState) -> Position:
        """The current hand of ``match`` (a ``dominoes.state.MatchState``), full information.

        A finished hand gives a finished position carrying the engine's result.
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
        if hand.result is not None:
            result = hand.result
            pos.end = result.end
            pos.winners = result.winners
            pos.points = result.points
            pos.counts = result.counts
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
        new.end = self.end
        new.winners = self.winners
        new.points = self.points
        new.counts = self.counts
        new._teams = self._teams
        return new

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

        ``end_pip`` is ``-1`` for the lead. A tile fitting both ends appears once per end,
        once only when both ends show the same pip (R12). Order: the lead tiles by index;
        otherwise the tiles fitting the left end by index, then those fitting the right end
        by index. Empty once the hand is over.
        """
        if self.end is not None:
            return []
        hand = self.hands[self.turn]
        left = self.left
        if left < 0:
            if self.required >= 0:
                return [(self.required, -1)]
            return [(t, -1) for t in _indices(hand)]
        right = self.right
        pip_mask = self.tables.pip_mask
        plays = [(t, left) for t in _indices(hand & pip_mask[left])]
        if right != left:
            plays += [(t, right) for t in _indices(hand & pip_mask[right])]
        return plays

    def engine_play(self, tile: int, end: int) -> Play:
        """The ``dominoes.state.Play`` for the seat to act playing ``(tile, end)`` (one of
        ``legal_plays()``), to hand to ``dominoes.engine.play_turn``."""
        return Play(self.turn, self.tables.tiles[tile], None if end < 0 else end)

    def result(self) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]] | None:
        """``(end, winners, points, counts)`` exactly as ``dominoes.scoring`` scores the
        hand (R19-R24), or ``None`` while it is on."""
        if self.end is None:
            return None
        return self.end, self.winners, self.points, self.counts

    def hand_result(self) -> HandResult | None:
        """The result as a ``dominoes.state.HandResult``, or ``None`` while the hand is on."""
        if self.end is None:
            return None
        return HandResult(self.end, self.winners, self.points, self.counts)

    # --- playing -------------------------------------------------------------------------

    def play(self, tile: int, end: int = -1) -> None:
        """The seat to act plays ``tile`` on the end showing pip ``end`` (``-1``: the lead),
        then the following seats' automatic draws and passes are applied (R14-R16) until a
        seat holds a play or the hand ends by domino (R17) or block (R18, as soon as the
        stock is empty and no seat fits). Changes this position in place.

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
        if left < 0:
            if end != -1 or (self.required >= 0 and tile != self.required):
                raise ValueError(f"tile {tile} (end {end}) is not a legal lead")
            self.left, self.right = self.tables.pips[tile]
        else:
            other = self.tables.other[tile]
            right = self.right
            if end == right and other[right] >= 0:
                self.right = other[right]
            elif end == left and other[left] >= 0:
                self.left = other[left]
            else:
                raise ValueError(f"tile {tile} does not fit an end showing {end}")
        hand ^= bit
        self.hands[seat] = hand
        if not hand:
            self._finish(_DOMINO, seat)
            return
        seat += 1
        self._settle(0 if seat == self.seats else seat)

    def _settle(self, seat: int) -> None:
        """From ``seat`` on, apply automatic draws and passes (R14-R16) until a seat fits,
        or end the hand when it is blocked (R18). Ends must be set."""
        hands = self.hands
        pip_mask = self.tables.pip_mask
        fit = pip_mask[self.left] | pip_mask[self.right]
        if hands[seat] & fit:
            self.turn = seat
            return
        stock = self.stock
        drawn = self.drawn
        n_stock = len(stock)
        seats = self.seats
        while True:
            hand = hands[seat]
            if hand & fit:
                self.turn = seat
                return
            if drawn < n_stock:
                while drawn < n_stock:
                    bit = 1 << stock[drawn]
                    drawn += 1
                    hand |= bit
                    if bit & fit:
                        break
                hands[seat] = hand
                self.drawn = drawn
                if hand & fit:
                    self.turn = seat
                    return
            # The stock is empty and this seat passes (R15), unless nobody fits (R18).
            anyone = 0
            for hand in hands:
                anyone |= hand
            if not anyone & fit:
                self.turn = seat
                self._finish(_BLOCKED, -1)
                return
            seat += 1
            if seat == seats:
                seat = 0

    def _finish(self, end: HandEnd, seat: int) -> None:
        self.end, self.winners, self.points, self.counts = _score(
            self.rules, self.tables, self.hands, end, seat, self._teams
        )


# --- helpers -----------------------------------------------------------------------------


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
    rules: Rules, hands: Sequence[int], end: HandEnd, seat: int = -1
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """Score final holding masks ``hands`` as ``dominoes.scoring`` would (R19-R24):
    ``end`` is ``HandEnd.DOMINO`` (then ``seat`` is the seat that went out, R20) or
    ``HandEnd.BLOCKED`` (R21-R23). Returns ``(end, winners, points, counts)``."""
    end = HandEnd(end)
    return _score(rules, tables_for(rules.max_pip), hands, end, seat, _teams(rules, len(hands)))


def _score(
    rules: Rules,
    tables: Tables,
    hands: Sequence[int],
    end: HandEnd,
    seat: int,
    teams: tuple[tuple[int, ...], ...] | None,
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """``(end, winners, points, counts)`` as ``dominoes.scoring`` computes it (R19-R24).

    ``seat``: the seat that went out for a domino (ignored for a block)."""
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
            if rules.partner_tiles_count:
                return end, winners, total, counts
            return end, winners, total - counts[seat], counts
        winners = teams[seat]
        if rules.partner_tiles_count:
            return end, winners, total, counts
        return end, winners, total - counts[winners[0]] - counts[winners[1]], counts
    if teams is not None:  # R22
        first, second = teams[0]
        team0 = counts[first] + counts[second]
        team1 = total - team0
        if team0 == team1:
            return end, (), 0, counts
        winners = teams[0] if team0 < team1 else teams[1]
        if rules.partner_tiles_count:
            return end, winners, total, counts
        return end, winners, max(team0, team1), counts
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
    return end, (winner,), total - counts[winner], counts


# --- random playouts ---------------------------------------------------------------------


def random_playout(
    position: Position, rng: random.Random
) -> tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]:
    """Play ``position`` to the end with uniformly random legal plays; return ``result()``.

    Mutates ``position`` (``copy()`` it first to keep it). Each play is
    ``legal_plays()[int(rng.random() * len(plays))]``, drawing one ``rng.random()`` per
    play that has two or more choices and none for a forced one, so a caller can replay
    the same choices through ``legal_plays``/``play`` (or ``dominoes.engine``).
    Same rules as ``Position.play`` (R11-R18), inlined for speed.
    """
    if position.end is not None:
        return position.result()
    hands = position.hands
    end, seat, position.left, position.right, position.drawn = _run(
        position.tables,
        hands,
        position.stock,
        position.drawn,
        position.seats,
        position.turn,
        position.left,
        position.right,
        position.required,
        rng.random,
    )
    position.turn = seat
    position.end, position.winners, position.points, position.counts = _score(
        position.rules, position.tables, hands, end, seat, position._teams
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
    seats: int,
    seat: int,
    left: int,
    right: int,
    required: int,
    random_,
) -> tuple[HandEnd, int, int, int, int]:
    """The random playout loop over raw values (see ``random_playout``); mutates ``hands``.

    ``seat`` must hold a play (a settled position). Returns ``(end, seat, left, right,
    drawn)``: how the hand ended, the seat that went out (domino) or was to act (blocked),
    the final ends and the number of stock tiles drawn.
    """
    pip_mask = tables.pip_mask
    other = tables.other
    n_stock = len(stock)
    nxt = _next_seat(seats)
    hand = hands[seat]
    if left < 0:  # the lead (R7-R10)
        tile = required
        if tile < 0:
            choices = hand
            k = int(random_() * hand.bit_count()) if hand & (hand - 1) else 0
            while k:
                choices &= choices - 1
                k -= 1
            tile = (choices & -choices).bit_length() - 1
        left, right = tables.pips[tile]
        hand ^= 1 << tile
        hands[seat] = hand
        if not hand:
            return _DOMINO, seat, left, right, drawn
        seat = nxt[seat]
        hand = hands[seat]
    fit = pip_mask[left] | pip_mask[right]
    while True:
        # Here ``hand`` is ``hands[seat]`` and ``fit`` the mask fitting either end. First the
        # automatic draws and passes (R14-R16) and the block (R18).
        if not hand & fit:
            while drawn < n_stock:
                bit = 1 << stock[drawn]
                drawn += 1
                hand |= bit
                if bit & fit:
                    break
            if not hand & fit:
                # No fit and no stock: pass (R15) to the next seat that fits; when none
                # does, the hand is blocked (R18).
                hands[seat] = hand
                start = seat
                while True:
                    seat = nxt[seat]
                    if seat == start:
                        return _BLOCKED, seat, left, right, drawn
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
            return _DOMINO, seat, left, right, drawn
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
    _check(rules)
    if seats not in rules.seat_counts:
        raise ValueError(f"{rules.name} is played with {rules.seat_counts} seats, not {seats}")
    tables = tables_for(rules.max_pip)
    bits, steps = _shuffle_plan(len(tables.tiles))
    per_seat = rules.tiles_per_seat[seats]
    cuts = tuple((s * per_seat, (s + 1) * per_seat) for s in range(seats))
    limit = rules.redeal_doubles if rules.redeal_doubles is not None else len(tables.tiles) + 1
    stock_from = seats * per_seat if rules.draw_from_stock else len(tables.tiles)
    return tables.bits, bits, steps, cuts, tables.doubles, limit, stock_from


def _deal(plan: tuple, getrandbits) -> tuple[list[int], tuple[int, ...]]:
    """``random_deal`` over a ``_deal_plan``: ``random_order`` inlined over tile bits."""
    tile_bits, bits, steps, cuts, doubles, limit, stock_from = plan
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
            if stock_from == len(order):
                return hands, ()
            return hands, tuple([bit.bit_length() - 1 for bit in order[stock_from:]])


def random_deal(rules: Rules, seats: int, rng: random.Random) -> tuple[list[int], tuple[int, ...]]:
    """A random deal as ``(holding masks, stock tile indices in draw order)`` (R4, R5).

    Shuffles as ``random_order`` does (one ``rng.getrandbits`` per shuffle): fine for
    simulations and benchmarks, but NOT the service's deal, which is the seeded, verifiable
    CSPRNG shuffle of ``dominoes.deal`` (R6). Seat ``s`` takes the ``s``-th run of tiles,
    the rest is the stock, as in ``dominoes.deal``. Redeals while a seat holds
    ``rules.redeal_doubles`` doubles or more (R5). ``stock`` is empty when
    ``rules.draw_from_stock`` is false. Raises ``ValueError`` for a bad seat count (R2).
    """
    return _deal(_deal_plan(rules, seats), rng.getrandbits)


def first_lead(tables: Tables, rules: Rules, hands: Sequence[int]) -> tuple[int, int]:
    """The first hand's ``(leader, required tile index)`` as ``dominoes.engine.first_lead``
    decides it (R7-R9); ``(0, -1)`` when ``rules.first_lead`` is ``"any"``. Raises
    ``ValueError`` for a lead by lot or by any double (the fast path has no seed stream)."""
    if rules.first_lead not in ("highest_double", "any"):
        raise ValueError(f"the fast playout path cannot draw the {rules.first_lead!r} lead")
    if rules.first_lead == "any":
        return 0, -1
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
            return seat, bit.bit_length() - 1
        seat += 1
    raise AssertionError("unreachable: the lead tile was dealt")


def first_hand_position(
    rules: Rules, seats: int, hands: list[int], stock: tuple[int, ...]
) -> Position:
    """The position at the start of a match's first hand dealt as ``hands``/``stock``
    (masks / tile indices in draw order), with the R7-R9 lead. Takes ownership of
    ``hands``."""
    pos = Position._blank(rules, seats)
    pos.hands = hands
    pos.stock = stock
    pos.left = pos.right = -1
    pos.turn, pos.required = first_lead(pos.tables, rules, hands)
    pos.leader = pos.turn
    return pos


def play_random_hands(
    seats: int, count: int, seed: int | None = None, rules: Rules = CLASSIC
) -> list[tuple[HandEnd, tuple[int, ...], int, tuple[int, ...]]]:
    """Deal and play ``count`` complete first hands of ``seats`` seats at random; return
    each hand's ``(end, winners, points, counts)``.

    Each hand: a ``random.Random(seed)`` shuffle (``random_deal``; NOT the service's
    CSPRNG deal, ``dominoes.deal``) with the R5 redeal, the R7-R9 first-hand lead
    (``first_lead``), then the ``random_playout`` loop; the same as
    ``random_playout(first_hand_position(rules, seats, *random_deal(rules, seats, rng)), rng)``
    without building ``Position`` objects. Used by ``bench/engine_speed.py``.
    """
    rng = random.Random(seed)
    random_ = rng.random
    getrandbits = rng.getrandbits
    tables = tables_for(rules.max_pip)
    plan = _deal_plan(rules, seats)
    teams = _teams(rules, seats)
    results = []
    append = results.append
    for _ in range(count):
        hands, stock = _deal(plan, getrandbits)
        leader, required = first_lead(tables, rules, hands)
        end, seat, _, _, _ = _run(tables, hands, stock, 0, seats, leader, -1, -1, required, random_)
        append(_score(rules, tables, hands, end, seat, teams))
    return results
