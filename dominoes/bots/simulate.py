"""Playing out one sampled world: the rest of the hand with every tile known.

A *world* is one determinization of the hidden information (``sampling``). It is turned
into an engine hand that starts from the position the viewer sees, with the sampled
holdings and stock, and played with the engine's own rules (``apply``/``advance``), so
the bots never re-implement a rule. Only sampled states are built here: the real match
is never touched (R31).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dominoes.engine import advance, apply, legal_moves
from dominoes.rules import Rules
from dominoes.state import HandResult, HandState, MatchState, Play
from dominoes.tiles import Tile
from dominoes.view import SeatView

#: A rollout policy: (state, legal plays) -> the play to make.
Policy = Callable[[MatchState, list[Play]], Play]


def world_state(
    view: SeatView, rules: Rules, holdings: Sequence[Sequence[Tile]], stock: Sequence[Tile]
) -> MatchState:
    """An engine state for the sampled world: the viewer's position with these tiles."""
    hand = HandState(
        number=view.hand_number,
        dealt=tuple(tuple(h) for h in holdings),
        stock=tuple(stock),
        drawn=0,
        holdings=tuple(tuple(sorted(h, reverse=True)) for h in holdings),
        line=view.line,
        ends=view.ends,
        turn=view.turn if view.turn is not None else view.seat,
        leader=view.leader,
        required_lead=None,
        actions=(),
    )
    return MatchState(
        rules=rules,
        seats=view.seats,
        target=10**9,  # never ends the match: only the hand's result is wanted
        scores=(0,) * view.seats,
        hands=(hand,),
    )


def play_out(state: MatchState, policy: Policy) -> HandResult:
    """Play the hand of ``state`` to its end with ``policy`` for every seat."""
    state = advance(state)
    while state.hand.result is None:
        moves = legal_moves(state)
        state = advance(apply(state, policy(state, moves)))
    return state.hand.result


def after(state: MatchState, move: Play) -> MatchState:
    """The state after ``move`` and the automatic draws and passes that follow."""
    return advance(apply(state, move))
