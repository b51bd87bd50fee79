"""Who leads a hand, and with what (R7-R10 and the profiles' ``first_lead`` and
``later_lead``), decided here once for the engine and the fast path."""

from __future__ import annotations

from collections.abc import Sequence

from dominoes.rules import Rules
from dominoes.seats import seat_after
from dominoes.state import HandEnd, MatchState
from dominoes.tiles import Tile, heaviest


def decide_first_lead(rules: Rules, highest_double, heaviest, top_double) -> tuple:
    """The first hand's lead as the profile decides it (R7-R10), once for the engine
    (``first_lead``) and the fast path (``dominoes.playout.deal.first_lead``), each giving
    the tiles in its own form (``Tile`` values or tile indices).

    ``highest_double``: ``(tile, seat)`` of the highest double dealt, or ``None``;
    ``heaviest``: a function giving ``(tile, seat)`` of the heaviest tile dealt (R9), called
    only when it decides (so ``None`` will do when a double was dealt); ``top_double``:
    the set's highest double (R7 rather than R8).
    Returns ``(seat, tile the lead must be or None, rule)``; ``seat`` is ``None`` for a
    lead by lot (``"lot"``: the caller draws it). ``"double"``: the holder of the highest
    double leads any of its doubles; ``"any"``: seat 0, any tile.
    """
    lead = rules.first_lead
    if lead == "any":
        return 0, None, "R10"
    if lead == "lot":
        return None, None, "R10"
    if lead == "double":
        return highest_double[1], None, "R7"
    if highest_double is not None:
        tile, seat = highest_double
        return seat, tile, "R7" if tile == top_double else "R8"
    tile, seat = heaviest()
    return seat, tile, "R9"


def first_lead(rules: Rules, dealt: Sequence[Sequence[Tile]]) -> tuple[int, Tile | None, str]:
    """The first hand's leader, the tile it must lead and the rule that says so (R7-R9).

    Returns ``(seat, tile, rule)``; ``tile`` is ``None`` when any tile may lead. For
    ``first_lead == "double"`` the seat is the holder of the highest double and ``tile`` is
    ``None`` (it may lead any of its doubles); ``"lot"`` needs the seed (``start_hand``):
    seat 0 here.
    """
    doubles = [(tile, seat) for seat, tiles in enumerate(dealt) for tile in tiles if tile.is_double]

    def heaviest_dealt() -> tuple[Tile, int]:
        best = heaviest(tile for tiles in dealt for tile in tiles)
        return best, next(seat for seat, tiles in enumerate(dealt) if best in tiles)

    top = Tile(rules.max_pip, rules.max_pip)
    seat, tile, rule = decide_first_lead(rules, max(doubles, default=None), heaviest_dealt, top)
    return (0 if seat is None else seat), tile, rule


def later_lead(match: MatchState) -> tuple[int, tuple[int, ...]]:
    """The leader of a hand after the first, and the seats that may lead instead of it.

    R10: the seat after the last leader. ``later_lead == "winner_team"``: the pair that won
    the last hand (the seat that went out first), either partner may lead; after a hand
    nobody won, the pair after the last leader's."""
    rules, seats, last = match.rules, match.seats, match.hand
    if rules.later_lead != "winner_team" or not rules.partnerships(seats):
        return seat_after(last.leader, seats), ()
    winners = last.result.winners if last.result is not None else ()
    if not winners:
        first = seat_after(last.leader, seats)
    elif last.result.end is HandEnd.DOMINO:
        first = last.actions[-1].seat
    else:
        first = winners[0]
    return first, (first, seat_after(first, seats, 2))
