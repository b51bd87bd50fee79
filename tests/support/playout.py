"""The fast path (``dominoes.playout``) played next to the engine: the profiles it must
follow, the engine's moves in the fast path's ``(tile index, end)`` form, and a hand played
through both paths with the same choices, checked at every step."""

from __future__ import annotations

import random

from dominoes.engine import (
    advance,
    apply,
    legal_moves,
    optional_actions,
)
from dominoes.playout import (
    DRAW,
    PASS,
    Position,
    tables_for,
)
from dominoes.rules import PROFILES, Rules
from dominoes.state import Draw, MatchState, Pass, Play

#: Profiles beyond CLASSIC that the engine supports; the fast path must follow them too.
NO_STOCK_ANY_LEAD = Rules(name="test-no-stock", draw_from_stock=False, first_lead="any")
PARTNER_TILES = Rules(name="test-partner-tiles", partner_tiles_count=True)


def engine_plays(match: MatchState) -> list[tuple[int, int]]:
    """The engine's legal moves as ``(tile_index, end_pip or -1)``."""
    index = tables_for(match.rules.max_pip).index
    return [(index[m.tile], -1 if m.end is None else m.end) for m in legal_moves(match)]


def engine_actions(match: MatchState) -> list[tuple[int, int]]:
    """The engine's legal moves, or its optional draw and pass as ``(DRAW | PASS, -1)``."""
    plays = engine_plays(match)
    if plays:
        return plays
    return [(DRAW if isinstance(a, Draw) else PASS, -1) for a in optional_actions(match)]


def passes_since_play(match: MatchState) -> int:
    """Passes since the last play, by the seats still playing (``leavers_sit_out``)."""
    passes = 0
    for action in reversed(match.hand.actions):
        if isinstance(action, Play):
            break
        passes += isinstance(action, Pass) and action.seat not in match.hand.out_seats
    return passes


def assert_same_position(pos: Position, match: MatchState) -> None:
    hand = match.hand
    index = tables_for(match.rules.max_pip).index
    assert pos.hands == [sum(1 << index[tile] for tile in tiles) for tiles in hand.holdings]
    assert [pos.holding(s) for s in range(match.seats)] == [list(t) for t in hand.holdings]
    assert pos.ends == hand.ends
    if match.rules.draw_from_stock:
        assert pos.stock_left == hand.stock_left
        tiles = pos.tables.tiles
        assert [tiles[t] for t in pos.remaining_stock()] == list(hand.stock[hand.drawn :])
    assert pos.tile_counts() == tuple(len(tiles) for tiles in hand.holdings)
    assert pos.is_over == hand.is_over
    if not hand.is_over:
        assert pos.turn == hand.turn
        assert pos.leader == hand.leader
        assert pos.choosing == bool(optional_actions(match))
        if match.rules.draw_optional:
            assert pos.passes == passes_since_play(match)


def play_both(match: MatchState, rng: random.Random) -> tuple[MatchState, Position]:
    """Play the current hand to its end through both paths with the same random choices
    (plays, and draws or passes where the seat may choose), checking agreement at every
    step."""
    pos = Position.from_match(match)
    assert_same_position(pos, match)
    while not match.hand.is_over:
        assert sorted(pos.legal_plays()) == sorted(engine_plays(match))
        got = pos.legal_actions()
        assert len(got) == len(set(got))
        assert sorted(got) == sorted(engine_actions(match))
        tile, end = got[rng.randrange(len(got))]
        action = pos.engine_action(tile, end)
        if tile >= 0:
            assert action == pos.engine_play(tile, end)
            assert action == Play(match.hand.turn, pos.tables.tiles[tile], None if end < 0 else end)
        else:
            assert action == optional_actions(match)[0 if tile == DRAW else 1]
        match = advance(apply(match, action))
        pos.act(tile, end)
        assert_same_position(pos, match)
        # A position rebuilt from the engine state at any point is the same position.
        again = Position.from_match(match)
        assert (again.hands, again.ends, again.result()) == (pos.hands, pos.ends, pos.result())
        assert pos.is_over or again.turn == pos.turn
    result = match.hand.result
    assert pos.result() == (result.end, result.winners, result.points, result.counts)
    assert pos.hand_result() == result
    assert pos.legal_plays() == [] and pos.legal_actions() == []
    return match, pos


#: Every (profile, table size) the engine plays.
PROFILE_TABLES = [
    (name, seats) for name in sorted(PROFILES) for seats in PROFILES[name].seat_counts
]


def replay_through_engine(match: MatchState, rng: random.Random) -> MatchState:
    """Play ``match``'s hand with the choice rule ``random_playout`` documents:
    ``legal_actions()[int(rng.random() * n)]``, one draw per action with two or more
    choices."""
    pos = Position.from_match(match)
    while not match.hand.is_over:
        actions = pos.legal_actions()
        tile, end = actions[int(rng.random() * len(actions))] if len(actions) > 1 else actions[0]
        match = advance(apply(match, pos.engine_action(tile, end)))
        pos.act(tile, end)
    return match
