"""Playouts where every seat of a sampled deal plays as Nino would (the rules page's
advice with the public voids), an alternative to Quelonia's greedy playouts that measured
no better for about twice the CPU (research/NOTEBOOK.md); ``research.lab.LabQuelonia``
plays with them when given ``rollout="advice"``."""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.bots.belief import Holding
from dominoes.bots.knowledge import Knowledge
from dominoes.bots.nino import ends_advice, other_seats
from dominoes.playout import Position, ends_after, tables_for
from dominoes.rules import Rules
from dominoes.tiles import make_tile
from dominoes.view import SeatView


def advice_rollout(view: SeatView, knowledge: Knowledge, rules: Rules):
    """``advice_playout`` as a function of a position alone (and, as ``greedy_playout``,
    an optional ``tiles_left``), for sampled deals of ``view``: the voids are
    ``knowledge.current_voids`` (what the log shows), the line the view's."""
    index = tables_for(rules.max_pip).index
    line = 0
    for a, b in view.line:
        line |= 1 << index[make_tile(a, b)]
    voids = knowledge.current_voids
    partnerships = rules.partnerships(view.seats)
    return lambda pos, tiles_left=0: advice_playout(
        pos, voids, line, partnerships, tiles_left=tiles_left
    )


def advice_playout(
    pos: Position,
    voids: Sequence[int],
    line: int,
    partnerships: bool,
    trace: list | None = None,
    tiles_left: int = 0,
) -> tuple | None:
    """Play ``pos`` (in place) to the end, every seat following the rules page's advice as
    Nino does (``nino.score_move``, R31: from its own tiles and what is public): heavy
    tiles and doubles first, variety kept, tiles kept that follow the new ends, and the
    ends the other seats have shown they lack (``nino.ends_score``: block the next rival,
    never close the partner's game). ``voids``: per seat, a mask of the pips it is known
    to lack at ``pos`` (``Knowledge.current_voids``); a seat that passes during the
    playout adds both ends to it, one that draws lacks just those two after it (its new
    tiles may show anything else). ``line``: the mask of the tiles on the line at ``pos``.
    A seat choosing to draw or to pass (``draw_optional``) draws, as ``greedy_playout``.
    ``trace``: when given, each play is appended as ``(seat, tile, end, voids)``, the voids
    the seat chose with. Returns ``pos.result()``: ``(end, winners, points, counts)``.
    With ``tiles_left`` > 0 it stops, as ``greedy_playout`` does, once the seats still
    playing hold at most that many tiles and the stock is empty, and returns ``None``
    (``endgame.solved_playout`` plays on from there)."""
    tables = pos.tables
    seats = pos.seats
    voids = list(voids)
    hands = pos.hands
    while pos.end is None:
        if tiles_left and pos.tiles_in_play() <= tiles_left and pos.drawn >= len(pos.stock):
            return None
        seat = pos.turn
        plays = pos.legal_plays()
        if not plays:  # a draw-or-pass choice (draw_optional): draw
            pos.draw()
            continue
        if len(plays) == 1:
            best = plays[0]
        else:
            best = _advice_choice(
                plays,
                tables,
                hands[seat],
                seat,
                pos.left,
                pos.right,
                line,
                voids,
                seats,
                partnerships,
            )
        tile, end = best
        if trace is not None:
            trace.append((seat, tile, end, tuple(voids)))
        before = hands[:] if pos.drawn < len(pos.stock) else None  # a draw may follow
        pos.play(tile, end)
        line |= 1 << tile
        if pos.end is not None:
            break
        if pos.turn != (seat + 1) % seats or before is not None:
            _note_voids(pos, seat, before, voids)
    return pos.result()


def _note_voids(pos: Position, seat: int, before: list[int] | None, voids: list[int]) -> None:
    """After ``seat``'s play, the seats after it up to the seat now to act drew (they lack
    just the new ends: ``voids`` set) or passed (they lack them too: added); ``before``:
    the holdings before the play, ``None`` when no draw could follow."""
    hands, seats, turn = pos.hands, pos.seats, pos.turn
    ends_mask = (1 << pos.left) | (1 << pos.right)
    between = seat
    while True:
        between = between + 1 if between + 1 < seats else 0
        if between == seat:
            break
        if before is not None and hands[between] != before[between]:
            voids[between] = ends_mask
        elif between != turn:
            voids[between] |= ends_mask
        if between == turn:
            break


def _advice_choice(plays, tables, hand, seat, left, right, line, voids, seats, partnerships):
    """The play of ``plays`` with the best ``nino.score_move`` score (the first on a tie)."""
    holding = Holding(tables, hand, line)
    others = other_seats(seats, seat, partnerships, voids, holding.exhausted)
    best = plays[0]
    best_score = -1e9
    for tile, end in plays:
        if not hand & ~(1 << tile):
            return tile, end
        new_left, new_right = ends_after(tables, left, right, tile, end)
        score = holding.score(tile, new_left, new_right)
        score += ends_advice(others, new_left, new_right)
        if score > best_score:
            best, best_score = (tile, end), score
    return best
