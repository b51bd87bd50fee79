"""Playing out one sampled world: the rest of the hand with every tile known.

A *world* is one determinization of the hidden information (``sampling``). It becomes a
``dominoes.playout.Position`` (the fast bit-mask hand, checked move for move against the
engine for every profile of ``dominoes.rules``) that starts from the position the viewer
sees, with the sampled holdings and stock. Only sampled positions are built here: the real
match is never touched (R31).

Every profile is supported: the profile's set (double-nine for ``cuban``, no 0-0 for
``three_player``), leads, blocks (``stock_on_block``), scoring fields and the draw-or-pass
choice of ``draw_optional`` (``first_double``).
"""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.playout import DRAW, PASS, Position, tables_for
from dominoes.playout import greedy_playout as greedy_playout  # Quelonia's, endgame's
from dominoes.rules import Rules
from dominoes.state import Draw, Pass, Play
from dominoes.tiles import Tile
from dominoes.view import SeatView


def world_position(
    view: SeatView, rules: Rules, holdings: Sequence[Sequence[Tile]], stock: Sequence[Tile]
) -> Position:
    """A playout position for the sampled world: the viewer's position with these tiles.

    ``rules``: the view's profile (``rules_named(view.rules)``); ``holdings``: every
    seat's tiles (the viewer's own included); ``stock``: the remaining stock in draw order
    (ignored when ``rules.draw_from_stock`` is false, e.g. ``cuban``'s tiles out). The
    seat to act is the view's ``turn``, or the viewer when it may lead as the partner in
    ``lead_seats`` (``cuban``; it then becomes the leader, as the engine makes it). The
    lead a first hand requires (R7-R9) is the viewer's one legal move then; the passes
    since the last play (``draw_optional``'s round of passes) are counted from the log, but
    for the seats that left the hand (``view.left_seats``), which the position skips.
    Raises ``ValueError`` for holdings inconsistent with the view (``Position.from_holdings``).
    """
    turn = view.turn if view.turn is not None else view.seat
    leader = view.leader
    required = None
    if view.ends is None and view.legal_moves:
        turn = view.seat
        if view.seat in view.lead_seats:
            leader = view.seat
        if rules.first_lead == "highest_double" and view.hand_number == 0:
            required = view.legal_moves[0].tile
    passes = 0
    for entry in reversed(view.log):
        if entry.kind == "play":
            break
        passes += entry.kind == "pass" and entry.seat not in view.left_seats
    return Position.from_holdings(
        rules,
        view.seats,
        holdings,
        stock,
        view.ends,
        turn,
        leader,
        required,
        passes,
        view.left_seats,
    )


def move_key(rules: Rules, move: Play | Draw | Pass) -> tuple[int, int]:
    """A move as ``Position.act`` arguments: ``(tile index, end pip or -1)`` for a play,
    ``(DRAW, -1)`` / ``(PASS, -1)`` for a draw or a pass (``draw_optional``)."""
    if isinstance(move, Draw):
        return DRAW, -1
    if isinstance(move, Pass):
        return PASS, -1
    return tables_for(rules.max_pip).index[move.tile], (-1 if move.end is None else move.end)
