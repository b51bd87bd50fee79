"""Abuela Quelonia's deals drawn from her belief by a Metropolis chain
(``dominoes.bots.posterior``, issue 20): consistent with the log, drawn from what the
seat sees only (R31), and closer to the truth than uniform deals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dominoes.bots.belief import decisions, log_likelihood
from dominoes.bots.knowledge import infer, pip_bits
from dominoes.bots.posterior import posterior_worlds
from dominoes.bots.sampling import sample_world
from dominoes.playout import tables_for
from dominoes.rules import CLASSIC
from tests.support.engine import bot_positions


def nino_positions(seats: int, count: int, seed: int):
    """``(match, view)`` pairs with a choice to make, everyone playing Nino."""
    return bot_positions(seats, count, seed, hands=2, bot="nino", keep=0.3)


def masks(holdings) -> list[int]:
    index = tables_for(6).index
    return [sum(1 << index[tile] for tile in tiles) for tiles in holdings]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_deal_fits_the_counts_the_voids_and_the_unseen_tiles(seats):
    for number, (_, view) in enumerate(nino_positions(seats, 25, seed=seats)):
        knowledge = infer(view)
        for holdings, stock in posterior_worlds(view, knowledge, random.Random(number), 12):
            assert holdings[view.seat] == list(view.tiles)
            assert [len(tiles) for tiles in holdings] == list(view.tile_counts)
            assert len(stock) == view.stock_size
            dealt = [t for seat, tiles in enumerate(holdings) if seat != view.seat for t in tiles]
            assert Counter(dealt + stock) == Counter(knowledge.unseen)
            for seat, tiles in enumerate(holdings):
                if seat != view.seat:  # a seat that passed on a pip holds none (R16)
                    assert all(not pip_bits(t) & knowledge.current_voids[seat] for t in tiles)


def test_the_deals_depend_on_the_view_only():
    """The same view gives the same deals for the same seed, whatever the real deal was:
    the chain is handed the view and nothing else (R31)."""
    for number, (_, view) in enumerate(nino_positions(4, 10, seed=5)):
        first = posterior_worlds(view, infer(view), random.Random(number), 8)
        again = posterior_worlds(view, infer(view), random.Random(number), 8)
        assert first == again


def test_the_chain_draws_deals_that_explain_the_plays_better_than_uniform_ones():
    """Against Nino, the chain's deals are likelier under the belief and put more of the
    other seats' tiles in the right seat than uniform deals do (a chain that kept no swap,
    or kept every swap, would tie with uniform)."""
    tables = tables_for(6)
    chain_right = uniform_right = chain_likelihood = uniform_likelihood = 0.0
    informative = 0
    for number, (match, view) in enumerate(nino_positions(4, 40, seed=6)):
        found = decisions(view, CLASSIC)
        if len(found) < 3:
            continue
        informative += 1
        knowledge = infer(view)
        truth = match.hand.holdings
        rng = random.Random(number)
        chained = [deal for deal, _ in posterior_worlds(view, knowledge, rng, 40)]
        uniform = [sample_world(view, knowledge, rng)[0] for _ in range(40)]
        for deals, sign in ((chained, 1), (uniform, -1)):
            right = sum(_right_share(truth, deal, view.seat) for deal in deals) / len(deals)
            likely = sum(
                log_likelihood(tables, CLASSIC, 4, found, masks(deal)) for deal in deals
            ) / len(deals)
            if sign > 0:
                chain_right += right
                chain_likelihood += likely
            else:
                uniform_right += right
                uniform_likelihood += likely
    assert informative >= 10
    assert chain_likelihood > uniform_likelihood
    assert chain_right / informative > uniform_right / informative + 0.03


def _right_share(truth, holdings, me: int) -> float:
    """The share of the other seats' true tiles that ``holdings`` puts in the right seat."""
    right = total = 0
    for seat, tiles in enumerate(truth):
        if seat != me:
            total += len(tiles)
            right += len(set(tiles) & set(holdings[seat]))
    return right / total
