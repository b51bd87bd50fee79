"""The end of a sampled hand solved exactly, every tile known (Quelonia's endgame playouts).

A greedy playout (``simulate.greedy_playout``) plays the last tiles of a sampled deal as
badly as its first: heavy tiles first, with no thought of who blocks whom. Here the
playout runs the greedy policy only until few tiles are left in the hands, then plays the
rest as a perfect-information game: the viewer's side plays to raise its value (its
chance of winning the match, ``quelonia.MatchModel.value``) and every other seat to lower
it (at three seats both other seats together: the paranoid assumption). The values are
kept per position for the whole of one choice, so the many alike deals of the chain (and
the several moves played out in each) share their endgames. The sampled deal is still
only a sample (R31): nothing here reads the real match.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from dominoes.bots.simulate import greedy_playout
from dominoes.playout import Position

#: A playout: plays a position (in place) to the end and returns ``pos.result()``.
Playout = Callable[[Position], tuple]


def solved_playout(
    value: Callable[[tuple[int, ...], int], float],
    viewer: int,
    partnerships: bool,
    tiles_left: int,
    partial: Callable[[Position, int], tuple | None] = greedy_playout,
) -> Playout:
    """A playout that plays greedily until at most ``tiles_left`` tiles are left in the
    hands of the seats still playing and the stock is empty, then plays the rest
    perfectly for both sides.

    ``partial(pos, tiles_left)``: the policy before the solving, playing ``pos`` in
    place until then and returning ``None`` (or ``pos.result()`` if the hand ended
    first): ``greedy_playout`` by default.

    ``value(winners, points)``: the viewer's side's value of a finished hand (match-win
    chance, 0-1; ``MatchModel.value``); ``viewer``: the viewer's seat; ``partnerships``:
    seats ``s`` and ``s + 2`` play together (R4), else every seat but the viewer plays
    against the viewer. With tiles still in the stock the playout stays greedy (a draw
    there would be no chance move, the sampled stock's order being known, but at three
    seats solving through the draws cost a choice over a second of CPU).
    The returned function keeps the solved positions' values for as long as it lives (one
    choice: one view, one match model); it returns ``(end, winners, points, counts)`` of
    the line both sides chose (``Position.result()`` at that line's end; ``pos`` itself is
    left where the solving began). Among lines of equal value the first legal play's
    (``Position.legal_plays`` order) is chosen.
    """
    memory: dict[tuple, tuple[float, tuple]] = {}
    outcomes: dict[tuple, float] = {}

    def ours(pos: Position) -> bool:
        """True when the seat to act at ``pos`` plays for the viewer's side (R2)."""
        seat, rules = pos.turn, pos.rules
        if seat == viewer:
            return True
        return partnerships and rules.team_of(seat, pos.seats) == rules.team_of(viewer, pos.seats)

    def solve(pos: Position) -> tuple[float, tuple]:
        """``(value, result)`` of ``pos`` with both sides playing perfectly: the value of
        the hand's outcome and that outcome (``Position.result()``)."""
        if pos.end is not None:
            outcome = (pos.winners, pos.points)
            found = outcomes.get(outcome)
            if found is None:
                found = outcomes[outcome] = value(*outcome)
            return found, pos.result()
        known = (*pos.hands, pos.left, pos.right, pos.turn, pos.drawn, pos.passes, pos.stock)
        best = memory.get(known)
        if best is None:
            lines = [solve(child) for child in _children(pos)]
            pick = max if ours(pos) else min
            best = memory[known] = pick(lines, key=itemgetter(0))
        return best

    def playout(pos: Position) -> tuple:
        result = partial(pos, tiles_left)
        return result if result is not None else solve(pos)[1]

    return playout


def _children(pos: Position) -> list[Position]:
    """The positions after each legal play of the seat to act (the stock is empty, so a
    seat to act always holds one: ``Position`` passes for the others)."""
    result = []
    for tile, end in pos.legal_plays():
        child = pos.copy()
        child.play(tile, end)
        result.append(child)
    return result
