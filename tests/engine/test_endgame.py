"""The solved endgame of a sampled hand (``endgame.solved_playout``, issue 20): the line it
plays is worth what a plain minimax over the *engine* says the position is worth (the
viewer's side raising the value, every other seat lowering it), so the fast path's rules
and the memory of solved positions cannot drift from the engine's (R11-R25). Pure engine
code: no database."""

from __future__ import annotations

import pytest

from dominoes.bots.endgame import solved_playout
from dominoes.bots.simulate import greedy_playout
from dominoes.engine import advance, apply, legal_moves, new_match
from dominoes.playout import Position
from dominoes.rules import PROFILES
from dominoes.state import MatchState


def _value_for(viewer: int, partnerships: bool):
    """A value of a finished hand for the viewer's side that tells every outcome apart:
    the points won (positive) or lost (negative), with a small weight on who won."""

    def value(winners: tuple[int, ...], points: int) -> float:
        if not winners:
            return 0.0
        ours = any(s == viewer or (partnerships and (s - viewer) % 2 == 0) for s in winners)
        return points + 0.5 if ours else -points - 0.25 * winners[0]

    return value


def _engine_minimax(match: MatchState, viewer: int, partnerships: bool, value) -> float:
    """The position's value by brute force over ``dominoes.engine`` (no memory)."""
    hand = match.hand
    seat = hand.turn
    ours = seat == viewer or (partnerships and (seat - viewer) % 2 == 0)
    values = []
    for move in legal_moves(match):
        after = advance(apply(match, move))
        ended = after.hands[len(match.hands) - 1].result  # a next hand may have started
        if ended is not None:
            values.append(value(ended.winners, ended.points))
        else:
            values.append(_engine_minimax(after, viewer, partnerships, value))
    return max(values) if ours else min(values)


def _near_the_end(name: str, seats: int, seed: bytes, tiles: int) -> MatchState | None:
    """A match of ``name`` at ``seats`` played by the engine's first legal move until at
    most ``tiles`` tiles are left in the hands and none in the stock, the hand still on
    (where the solver takes over); ``None`` when the hand ends first."""
    match = advance(new_match(seats, 100, seed=seed, rules=PROFILES[name]))
    while True:
        hand = match.hand
        stock_left = hand.stock_left if match.rules.draw_from_stock else 0
        if sum(len(t) for t in hand.holdings) <= tiles and not stock_left:
            return match
        after = advance(apply(match, legal_moves(match)[0]))
        if len(after.hands) != len(match.hands) or after.hand.result is not None:
            return None
        match = after


@pytest.mark.parametrize(
    ("name", "seats", "tiles"),
    [("classic", 4, 9), ("classic", 3, 7), ("classic", 2, 6), ("cuban", 4, 9)],
)
def test_the_solved_line_is_worth_the_engines_minimax(name, seats, tiles):
    """For positions near the end of up to forty deals, every seat as viewer: the outcome of
    the line ``solved_playout`` plays has the value that a minimax over the engine gives
    the position (partnerships R4 at four seats; at two and three seats every other seat
    plays against the viewer). The same playout function serves all of a deal's viewers'
    positions in turn, so a position remembered wrongly would show."""
    rules = PROFILES[name]
    partnerships = rules.partnerships(seats)
    checked = 0
    for n in range(40):
        match = _near_the_end(name, seats, b"endgame-%d" % n, tiles)
        if match is None:
            continue  # that hand ended first
        for viewer in range(seats):
            value = _value_for(viewer, partnerships)
            playout = solved_playout(value, viewer, partnerships, tiles_left=tiles)
            for _ in range(2):  # the second time from the memory
                _, winners, points, _ = playout(Position.from_match(match))
                expected = _engine_minimax(match, viewer, partnerships, value)
                assert value(winners, points) == expected, (n, viewer)
            checked += 1
    assert checked >= 12


def test_greedy_playout_stops_when_few_tiles_are_left_and_the_solver_plays_on():
    """``greedy_playout(pos, tiles_left)`` stops once the hands hold at most that many
    tiles (or at the hand's end); ``solved_playout`` then solves the hand to its end, and
    its outcome is one the position can reach."""
    match = advance(new_match(4, 100, seed=b"endgame-stop", rules=PROFILES["classic"]))
    pos = Position.from_match(match)
    assert greedy_playout(pos, 10) is None
    assert pos.tiles_in_play() <= 10 and pos.end is None
    value = _value_for(0, True)
    end, winners, points, counts = solved_playout(value, 0, True, tiles_left=10)(pos)
    assert end is not None and points > 0 and len(counts) == 4
    assert value(winners, points) == _position_minimax(pos, value)


def _position_minimax(pos: Position, value) -> float:
    """Seats 0 and 2 against 1 and 3, by brute force over the fast path (no memory)."""
    if pos.end is not None:
        return value(pos.winners, pos.points)
    values = []
    for tile, end in pos.legal_plays():
        child = pos.copy()
        child.play(tile, end)
        values.append(_position_minimax(child, value))
    return max(values) if pos.turn % 2 == 0 else min(values)
