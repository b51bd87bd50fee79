"""Playing out one sampled world: the rest of the hand with every tile known.

A *world* is one determinization of the hidden information (``sampling``). It becomes a
``dominoes.playout.Position`` (the fast bit-mask hand, checked move for move against the
engine) that starts from the position the viewer sees, with the sampled holdings and
stock. Only sampled positions are built here: the real match is never touched (R31).
"""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.playout import Position, tables_for
from dominoes.rules import Rules
from dominoes.state import Play
from dominoes.tiles import Tile
from dominoes.view import SeatView


def world_position(
    view: SeatView, rules: Rules, holdings: Sequence[Sequence[Tile]], stock: Sequence[Tile]
) -> Position:
    """A playout position for the sampled world: the viewer's position with these tiles."""
    return Position.from_holdings(
        rules,
        view.seats,
        holdings,
        stock,
        view.ends,
        view.turn if view.turn is not None else view.seat,
        view.leader,
        None,
    )


def move_key(rules: Rules, move: Play) -> tuple[int, int]:
    """A play as ``Position.play`` arguments: ``(tile index, end pip or -1)``."""
    return tables_for(rules.max_pip).index[move.tile], (-1 if move.end is None else move.end)


def greedy_playout(pos: Position) -> tuple:
    """Play ``pos`` (in place) to the end, every seat following a quick heuristic: go out
    when possible, else dump heavy tiles and doubles while keeping tiles that follow the
    new ends (a richer Nino-like policy measured no better).
    Returns ``pos.result()``: ``(end, winners, points, counts)``."""
    tables = pos.tables
    value, pip_mask, other, pips = tables.value, tables.pip_mask, tables.other, tables.pips
    doubles = tables.doubles
    while pos.end is None:
        plays = pos.legal_plays()
        if len(plays) == 1:
            pos.play(*plays[0])
            continue
        hand = pos.hands[pos.turn]
        left, right = pos.left, pos.right
        best = plays[0]
        best_score = -1e9
        for tile, end in plays:
            rest = hand & ~(1 << tile)
            if not rest:
                best = (tile, end)
                break
            if end < 0:
                new_left, new_right = pips[tile]
            elif end == right and other[tile][right] >= 0:
                new_left, new_right = left, other[tile][right]
            else:
                new_left, new_right = other[tile][left], right
            fit = (rest & (pip_mask[new_left] | pip_mask[new_right])).bit_count()
            score = value[tile] + (4 if doubles >> tile & 1 else 0) + 1.5 * (fit if fit < 3 else 3)
            if score > best_score:
                best, best_score = (tile, end), score
        pos.play(*best)
    return pos.result()
