"""Property: the fast path (``dominoes.playout``) and the engine (``dominoes.engine``) are
one set of rules at two speeds.

Hypothesis draws a profile of ``dominoes.rules.PROFILES`` and one of its table sizes, a
deal seed, a first or a later hand, and the random choices. The hand is then walked
through the engine, and at every step:

- the legal moves (plays, or the draw-or-pass choice of ``draw_optional``) of ``Position``
  equal the engine's;
- ``random_playout`` (the bit-mask loop ``run._run``) from that position ends the hand as
  the engine does with the same choices: same end (domino or blocked), winners, points
  and counts (R11-R24 and the profile's fields);
- ``greedy_playout`` (Abuela Quelonia's rollout, its own fast loop) ends it as the engine
  does when the engine plays the same policy.

The engine side chooses from the engine's own legal moves (``legal_moves`` /
``optional_actions``), ordered as ``Position.legal_actions`` orders them, so a rule changed
in either implementation changes a result here. Pure engine code: no database, no Django.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dominoes.engine import advance, apply, legal_moves, new_match, optional_actions, start_hand
from dominoes.playout import DRAW, PASS, Position, greedy_playout, random_playout, tables_for
from dominoes.playout.greedy import _greedy_choice
from dominoes.rules import PROFILES
from dominoes.state import Draw, MatchState, Pass, Play
from tests.support.playout import PROFILE_TABLES


def engine_choices(match: MatchState) -> list[Play | Draw | Pass]:
    """The engine's legal actions in ``Position.legal_actions`` order: the lead tiles, or
    the plays on the left end then on the right end, each by tile index (heaviest first);
    else the optional ``[Draw, Pass]``."""
    plays = legal_moves(match)
    if not plays:
        return list(optional_actions(match))
    index = tables_for(match.rules.max_pip).index
    left = match.hand.ends[0] if match.hand.ends else None
    return sorted(plays, key=lambda play: (play.end not in (None, left), index[play.tile]))


def as_pairs(match: MatchState, actions: list) -> list[tuple[int, int]]:
    """Engine actions as the fast path's ``(tile index | DRAW | PASS, end or -1)``."""
    index = tables_for(match.rules.max_pip).index
    pairs = []
    for action in actions:
        if isinstance(action, Play):
            pairs.append((index[action.tile], -1 if action.end is None else action.end))
        else:
            pairs.append((DRAW if isinstance(action, Draw) else PASS, -1))
    return pairs


def engine_random_result(match: MatchState, rng: random.Random) -> tuple:
    """The hand played on by the engine with ``random_playout``'s choice rule: action
    ``int(rng.random() * n)`` of ``n`` in ``engine_choices`` order, no draw for one."""
    while not match.hand.is_over:
        actions = engine_choices(match)
        n = len(actions)
        match = advance(apply(match, actions[int(rng.random() * n) if n > 1 else 0]))
    result = match.hand.result
    return result.end, result.winners, result.points, result.counts


def engine_greedy_result(match: MatchState) -> tuple:
    """The hand played on by the engine, every seat choosing as ``greedy_playout``'s
    policy does (its choice read on a position of the engine's state; a seat that may
    draw or pass draws)."""
    while not match.hand.is_over:
        plays = legal_moves(match)
        if not plays:
            match = advance(apply(match, optional_actions(match)[0]))
            continue
        pos = Position.from_match(match)
        tile, end = _greedy_choice(pos, pos.legal_plays())
        match = advance(apply(match, pos.engine_play(tile, end)))
    result = match.hand.result
    return result.end, result.winners, result.points, result.counts


@settings(max_examples=300, deadline=None)
@given(
    table=st.sampled_from(PROFILE_TABLES),
    seed=st.binary(min_size=1, max_size=8),
    later=st.booleans(),
    choices=st.integers(0, 2**32),
)
def test_playout_matches_engine_at_every_step(
    table: tuple[str, int], seed: bytes, later: bool, choices: int
) -> None:
    name, seats = table
    rules = PROFILES[name]
    match = new_match(seats, rules.targets[0], seed=seed, rules=rules)
    rng = random.Random(choices)
    if later:  # a later hand: its lead rotates or goes to the last hand's winners (R10)
        while not match.hand.is_over:
            actions = engine_choices(match)
            match = advance(apply(match, actions[rng.randrange(len(actions))]))
        if match.is_over:
            return
        match = start_hand(match, seed=b"later-" + seed)
    pos = Position.from_match(match)
    step = 0
    while True:
        step += 1
        assert pos.is_over == match.hand.is_over
        expected = engine_random_result(match, random.Random(step))
        assert random_playout(pos.copy(), random.Random(step)) == expected
        assert random_playout(Position.from_match(match), random.Random(step)) == expected
        assert greedy_playout(pos.copy()) == engine_greedy_result(match)
        if match.hand.is_over:
            break
        actions = engine_choices(match)
        assert pos.legal_actions() == as_pairs(match, actions)
        k = rng.randrange(len(actions))
        match = advance(apply(match, actions[k]))
        pos.act(*pos.legal_actions()[k])
    result = match.hand.result
    assert pos.result() == (result.end, result.winners, result.points, result.counts)
