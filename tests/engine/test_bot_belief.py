"""Abuela Quelonia's reading of the other seats' past plays (``dominoes.bots.belief``)."""

from __future__ import annotations

import random

import pytest

from dominoes.bots.belief import (
    Decision,
    advice_score,
    decisions,
    log_likelihood,
    tempered_weights,
)
from dominoes.bots.knowledge import infer
from dominoes.bots.nino import score_move
from dominoes.bots.sampling import sample_world
from dominoes.playout import tables_for
from dominoes.rules import CLASSIC
from dominoes.tiles import Tile
from tests.support.engine import bot_positions


def nino_positions(seats: int, count: int, seed: int):
    """``(match, view)`` pairs with a choice to make, everyone playing Nino."""
    return bot_positions(seats, count, seed, hands=2, bot="nino", keep=0.3)


def masks(holdings) -> list[int]:
    index = tables_for(6).index
    return [sum(1 << index[tile] for tile in tiles) for tiles in holdings]


def test_decisions_are_the_other_seats_free_plays_since_their_last_draw():
    for match, view in nino_positions(3, 40, seed=1):
        found = decisions(view, CLASSIC)
        assert all(decision.seat != view.seat for decision in found)
        plays = [e for e in view.log if e.kind == "play" and e.seat != view.seat]
        if view.hand_number == 0:  # the first lead is imposed (R7-R9): it says nothing
            assert all(decision.ends is not None for decision in found)
        for decision in found:
            # No draw since: the seat held its tiles of now plus those it played since,
            # and the count matches what the log shows it held then.
            held = masks(match.hand.holdings)[decision.seat] | decision.after
            assert held >> decision.tile & 1
            assert not masks(match.hand.holdings)[decision.seat] & decision.after
        assert len(found) <= len(plays)


def test_tempered_weights_keep_enough_effective_samples():
    assert tempered_weights([]) == []
    assert tempered_weights([0.0, 0.0, 0.0, 0.0]) == pytest.approx([0.25] * 4)
    weights = tempered_weights([0.0, -50.0, -60.0, -70.0, -80.0] * 4, min_share=0.5)
    assert sum(weights) == pytest.approx(1.0)
    assert 1.0 / sum(w * w for w in weights) >= 0.5 * 20 - 1e-6
    # Mild differences are kept at full strength (power 1).
    mild = tempered_weights([0.0, -0.1, -0.2, -0.3], min_share=0.3)
    assert mild[0] > mild[-1]


def test_the_true_deal_explains_the_plays_better_than_most_samples():
    """Against players following the advice, the real deal is among the likeliest."""
    tables = tables_for(6)
    ranks = []
    for match, view in nino_positions(4, 30, seed=2):
        found = decisions(view, CLASSIC)
        if len(found) < 3:
            continue
        knowledge = infer(view)
        rng = random.Random(7)
        truth = log_likelihood(tables, CLASSIC, 4, found, masks(match.hand.holdings))
        sampled = [
            log_likelihood(tables, CLASSIC, 4, found, masks(sample_world(view, knowledge, rng)[0]))
            for _ in range(60)
        ]
        ranks.append(sum(1 for value in sampled if value < truth) / len(sampled))
    assert len(ranks) >= 10
    assert sum(ranks) / len(ranks) > 0.7  # uniform sampling would give about 0.5


def test_weighing_places_more_hidden_tiles_with_their_true_holder():
    tables = tables_for(6)
    plain = weighted = 0.0
    for match, view in nino_positions(4, 30, seed=3):
        found = decisions(view, CLASSIC)
        knowledge = infer(view)
        rng = random.Random(11)
        truth = masks(match.hand.holdings)
        worlds = [masks(sample_world(view, knowledge, rng)[0]) for _ in range(80)]
        logs = [log_likelihood(tables, CLASSIC, 4, found, world) for world in worlds]
        weights = tempered_weights(logs)
        hidden = sum(truth[s].bit_count() for s in range(4) if s != view.seat)

        def right(world: list[int], truth=truth, me=view.seat) -> float:
            return sum((world[s] & truth[s]).bit_count() for s in range(4) if s != me)

        plain += sum(right(world) for world in worlds) / len(worlds) / hidden
        weighted += sum(w * right(world) for w, world in zip(weights, worlds, strict=True)) / hidden
    assert weighted > plain + 0.03 * 30


def test_the_advice_score_on_masks_is_nino_s_score():
    """``belief.advice_score`` (bit masks) and ``nino.score_move`` (tiles) are one advice."""
    tables = tables_for(6)
    index = tables.index
    checked = 0
    for _, view in nino_positions(4, 40, seed=4):
        knowledge = infer(view)
        line = sum(1 << index[Tile(max(a, b), min(a, b))] for a, b in view.line)
        now = Decision(view.seat, 0, -1, view.ends, 0, line, knowledge.current_voids)
        hand = sum(1 << index[tile] for tile in view.tiles)
        for move in view.legal_moves:
            end = -1 if move.end is None else move.end
            if view.ends is not None and move.end is None:
                end = view.ends[1] if move.tile.has(view.ends[1]) else view.ends[0]
            expected = score_move(view, knowledge, move)
            got = advice_score(tables, CLASSIC, 4, now, hand, index[move.tile], end)
            assert got == pytest.approx(expected), (view, move)
            checked += 1
    assert checked > 80
