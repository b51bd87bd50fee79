"""How a ``Position`` moves: plays, draws and passes, the automatic steps after them, and
the end of the hand (R11-R18). A mixin of ``position.Position``, which holds the fields."""

from __future__ import annotations

from dominoes.playout.score import _score
from dominoes.playout.steps import BLOCKED, no_fit_step
from dominoes.playout.tables import DRAW, PASS
from dominoes.seats import NEXT_SEATS
from dominoes.state import HandEnd
from dominoes.tiles import place

_DOMINO = HandEnd.DOMINO
_BLOCKED = HandEnd.BLOCKED


class PositionMoves:
    """The moving half of ``Position`` (see its fields there)."""

    __slots__ = ()

    def _sit_out(self, out: tuple[int, ...]) -> None:
        """Mark the seats ``out`` as gone from the hand; before the lead a seat to act that
        holds no double may lead any tile (``engine._lead_must_be_double``)."""
        self.out = out
        if out and self.left < 0 and not self.hands[self.turn] & self.lead_mask:
            self.lead_mask = -1

    def _next(self, seat: int) -> int:
        """The seat after ``seat`` still playing (R3)."""
        nxt = NEXT_SEATS[self.seats]
        seat = nxt[seat]
        while seat in self.out:
            seat = nxt[seat]
        return seat

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
            placed = (True, self.tables.pips[tile])
        else:
            placed = place((left, right), self.tables.pips[tile], end)
            if placed is None:
                raise ValueError(f"tile {tile} does not fit an end showing {end}")
        self.left, self.right = placed[1]
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
        self._settle(NEXT_SEATS[self.seats][seat])

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
        """From ``seat`` on, the automatic draws and passes (R14-R16, ``no_fit_step``) until
        a seat fits (or chooses, ``draw_optional``), or the end of a blocked hand (R18,
        ``stock_on_block``, a round of passes). Ends must be set."""
        pip_mask = self.tables.pip_mask
        fit = pip_mask[self.left] | pip_mask[self.right]
        if self.hands[seat] & fit:
            self.turn = seat
            return
        rules = self.rules
        optional, closer_rival = rules.draw_optional, rules.stock_on_block is not None
        self.turn, self.drawn, self.passes, outcome = no_fit_step(
            self.hands,
            self.stock,
            self.drawn,
            seat,
            fit,
            self.passes,
            optional,
            closer_rival,
            None,
            self.out,
        )
        if outcome == BLOCKED:
            self._finish(_BLOCKED, -1)

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
