"""Abuela Quelonia's quick rollout policy (``dominoes.playout.greedy.greedy_playout``): its
fast loop plays exactly what the plain loop over ``Position.legal_plays`` and
``Position.play`` plays, on every profile, from leads, mid-hand positions, with draws and
with ``tiles_left``; and the common case does not go through ``legal_plays``."""

from __future__ import annotations

import random

import pytest

from dominoes.playout import Position, first_hand_position, greedy, random_deal
from dominoes.playout.greedy import greedy_playout
from dominoes.rules import PROFILES
from tests.support.engine import position_state

PROFILE_TABLES = [
    (name, seats) for name in sorted(PROFILES) for seats in PROFILES[name].seat_counts
]


def plain_playout(pos: Position, tiles_left: int = 0) -> tuple | None:
    """The policy through ``Position``'s own methods move by move: the reference."""
    countdown = max(0, pos.tiles_in_play() - tiles_left) if tiles_left else -1
    while pos.end is None:
        if not countdown:
            countdown = pos.tiles_in_play() - tiles_left
            if countdown <= 0:
                if pos.drawn >= len(pos.stock):
                    break
                countdown = 1
        countdown -= 1
        plays = pos.legal_plays()
        if not plays:
            pos.draw()
            continue
        pos.play(*greedy._greedy_choice(pos, plays))
    return pos.result()


def positions(name: str, seats: int, count: int, seed: int) -> list[Position]:
    """``count`` positions of random first hands of ``name`` at ``seats``: each hand's
    lead, then after every few random legal actions."""
    rules = PROFILES[name]
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        hands, stock = random_deal(rules, seats, rng)
        pos = first_hand_position(rules, seats, hands, stock, rng)
        while pos.end is None and len(found) < count:
            if rng.random() < 0.4:
                found.append(pos.copy())
            actions = pos.legal_actions()
            pos.act(*actions[rng.randrange(len(actions))])
    return found


def full_state(pos: Position) -> tuple:
    return (*position_state(pos), pos.end, pos.winners, pos.points, pos.counts, pos.capicua)


@pytest.mark.parametrize(("name", "seats"), PROFILE_TABLES)
@pytest.mark.parametrize("tiles_left", [0, 8])
def test_the_fast_loop_plays_what_the_plain_loop_plays(
    name: str, seats: int, tiles_left: int
) -> None:
    """Same result, same final position (holdings, stock, ends, seat, passes, outcome)."""
    for n, pos in enumerate(positions(name, seats, 150, seed=seats * 1000 + tiles_left)):
        fast, plain = pos.copy(), pos.copy()
        assert greedy_playout(fast, tiles_left) == plain_playout(plain, tiles_left), n
        assert full_state(fast) == full_state(plain), n


def test_the_common_case_does_not_build_the_legal_plays(monkeypatch) -> None:
    """At ``cuban`` and classic four seats (no draw, nobody out) a playout after the lead
    never calls ``Position.legal_plays`` or ``Position.play``: that is the CPU it saves."""
    after_lead = [
        pos for name in ("cuban", "classic") for pos in positions(name, 4, 40, 7) if pos.left >= 0
    ]
    calls: list[str] = []
    for method in ("legal_plays", "play"):
        real = getattr(Position, method)
        monkeypatch.setattr(
            Position, method, lambda self, *a, _r=real, _m=method: calls.append(_m) or _r(self, *a)
        )
    for pos in after_lead:
        greedy_playout(pos)
    assert len(after_lead) > 40 and calls == []
