"""``Position``: one hand of the fast path, mutable, with full information.

Plays every profile as ``dominoes.engine`` does (see ``dominoes.playout``); its moves
go through ``dominoes.tiles.place`` and its draws and passes through
``steps.no_fit_step``, the same steps the random loop (``run``) takes.
"""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.playout.moves import PositionMoves
from dominoes.playout.steps import live_tiles
from dominoes.playout.tables import (
    DRAW,
    PASS,
    _indices,
    _mask,
    _teams,
    distinct_masks,
    tables_for,
    tiles_of,
)
from dominoes.rules import Rules
from dominoes.state import Draw, HandEnd, HandResult, MatchState, Pass, Play
from dominoes.tiles import Tile

_DOMINO = HandEnd.DOMINO
_BLOCKED = HandEnd.BLOCKED


class Position(PositionMoves):
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
        hands, stock_indices = distinct_masks(pos.tables, holdings, stock)
        if not all(hands):
            raise ValueError("an empty holding: that hand is already over (R17)")
        stock_indices = stock_indices if rules.draw_from_stock else ()
        required = pos.tables.index[required_lead] if required_lead is not None else -1
        pos._setup(hands, stock_indices, line_ends, turn, leader, required, passes, tuple(out))
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
        remaining = hand.stock[hand.drawn :] if rules.draw_from_stock else ()
        required = index[hand.required_lead] if hand.required_lead is not None else -1
        pos._setup(
            [_mask(tiles, index) for tiles in hand.holdings],
            tuple(index[tile] for tile in remaining),
            hand.ends,
            hand.turn,
            hand.leader,
            required,
            hand.passes_since_play,
            hand.out_seats,
        )
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

    def _setup(self, hands, stock, ends, turn, leader, required, passes, out) -> None:
        """Fill in a ``_blank`` position: holding masks, remaining stock indices, ends (or
        ``None``), seat to act, leader, required lead index, passes, seats that left."""
        self.hands = hands
        self.stock = stock
        self.left, self.right = ends if ends is not None else (-1, -1)
        self.turn = turn
        self.leader = leader
        self.required = required
        self.passes = passes
        self._sit_out(out)

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

    def tiles_in_play(self) -> int:
        """How many tiles the seats still playing hold (``out`` skipped)."""
        return live_tiles(self.hands, self.out).bit_count()

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
