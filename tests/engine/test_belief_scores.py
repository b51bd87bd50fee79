"""The weighing's advice scores (``belief.play_gaps``, what Quelonia's chain spends half
its CPU on): the very floats ``belief.advice_score`` gives, option by option, at
double-six and double-nine, from the true holdings and from sampled ones; and computed in
one loop, without a ``Holding`` or a ``place`` per option (issue 20's CPU goal)."""

from __future__ import annotations

import random

import pytest

from dominoes.bots import belief, choose_play
from dominoes.bots.belief import advice_score, decisions, play_gaps
from dominoes.bots.knowledge import infer
from dominoes.bots.sampling import sample_world
from dominoes.engine import advance, apply, new_match, optional_actions
from dominoes.playout import tables_for
from dominoes.rules import PROFILES
from dominoes.view import view_for


def cases(name: str, seats: int, seed: bytes):
    """``(rules, decision, number, hand, cache)`` for every informative play of the other
    seats at every Nino choice of one hand, from the true holdings and two sampled deals;
    ``cache`` is the view's (``play_gaps`` keys its entries by the play's number)."""
    rules = PROFILES[name]
    index = tables_for(rules.max_pip).index
    rng = random.Random(seed)
    match = advance(new_match(seats, rules.targets[0], seed=seed, rules=rules))
    while not match.hand.is_over:
        view = view_for(match, match.hand.turn)
        if not view.legal_moves:
            match = advance(apply(match, optional_actions(match)[0]))
            continue
        found = decisions(view, rules)
        cache: dict = {}
        deals = [match.hand.holdings]
        deals += [sample_world(view, infer(view), rng)[0] for _ in range(2)]
        for holdings in deals:
            masks = [sum(1 << index[tile] for tile in tiles) for tiles in holdings]
            for number, decision in enumerate(found):
                yield rules, decision, number, masks[decision.seat] | decision.after, cache
        match = advance(apply(match, choose_play("nino", view, seed=len(match.hand.actions))))


def expected_gaps(rules, seats, decision, hand):
    """``play_gaps`` from ``advice_score`` option by option (its definition)."""
    tables = tables_for(rules.max_pip)
    options = belief._options(tables, decision, hand)
    if len(options) < 2:
        return None
    scores = [advice_score(tables, rules, seats, decision, hand, t, e) for t, e in options]
    chosen = advice_score(tables, rules, seats, decision, hand, decision.tile, decision.end)
    if chosen >= 1e6:
        return None
    finite = [score for score in scores if score < 1e6]
    top = max(finite)
    return chosen - top, [score - top for score in finite]


@pytest.mark.parametrize(("name", "seats"), [("cuban", 4), ("classic", 4), ("classic", 3)])
def test_play_gaps_are_the_advice_scores_exactly(name: str, seats: int) -> None:
    checked = 0
    for n in range(3):
        for rules, decision, number, hand, cache in cases(name, seats, b"gaps-%d" % n):
            tables = tables_for(rules.max_pip)
            got = play_gaps(tables, rules, seats, decision, number, hand, cache)
            assert got == expected_gaps(rules, seats, decision, hand)
            checked += got is not None
    assert checked > 100


def test_play_gaps_build_no_holding_and_place_no_tile(monkeypatch) -> None:
    found = list(cases("cuban", 4, b"gaps-calls"))
    calls: list[str] = []
    real_holding, real_place = belief.Holding, belief.place
    monkeypatch.setattr(belief, "Holding", lambda *a: calls.append("Holding") or real_holding(*a))
    monkeypatch.setattr(belief, "place", lambda *a: calls.append("place") or real_place(*a))
    tables = tables_for(9)
    for rules, decision, number, hand, cache in found:
        play_gaps(tables, rules, 4, decision, number, hand, cache)
    assert len(found) > 100 and calls == []
