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

    def chained(view, knowledge, rng):
        return [deal for deal, _ in posterior_worlds(view, knowledge, rng, 40)]

    def uniform(view, knowledge, rng):
        return [sample_world(view, knowledge, rng)[0] for _ in range(40)]

    informative, chain, drawn = _compare(6, chained, uniform, same_seed=False)
    assert informative >= 10
    assert chain[0] > drawn[0]
    assert chain[1] / informative > drawn[1] / informative + 0.03


def _compare(seed: int, first, second, same_seed: bool) -> tuple[int, list, list]:
    """``first`` and ``second`` (``(view, knowledge, rng) -> deals``, holdings per seat)
    on the Nino positions of ``seed`` with at least three informative plays: how many,
    and for each the sums over positions of ``_fit``'s two means. ``same_seed``: each
    draws from its own ``random.Random(position)``; else they share one, in turn."""
    totals: tuple[list, list] = ([0.0, 0.0], [0.0, 0.0])
    informative = 0
    for number, (match, view) in enumerate(nino_positions(4, 40, seed=seed)):
        found = decisions(view, CLASSIC)
        if len(found) < 3:
            continue
        informative += 1
        knowledge = infer(view)
        rng = random.Random(number)
        for draw, sums in zip((first, second), totals, strict=True):
            deals = draw(view, knowledge, random.Random(number) if same_seed else rng)
            for part, value in enumerate(_fit(found, match.hand.holdings, view.seat, deals)):
                sums[part] += value
    return informative, *totals


def _fit(found, truth, me: int, deals) -> tuple[float, float]:
    """The mean over ``deals`` (holdings per seat) of their log-likelihood under the belief
    given the plays ``found``, and of the share of the other seats' true tiles (``truth``)
    they put in the right seat."""
    tables = tables_for(6)
    likely = sum(log_likelihood(tables, CLASSIC, 4, found, masks(deal)) for deal in deals)
    right = sum(_right_share(truth, deal, me) for deal in deals)
    return likely / len(deals), right / len(deals)


def _right_share(truth, holdings, me: int) -> float:
    """The share of the other seats' true tiles that ``holdings`` puts in the right seat."""
    right = total = 0
    for seat, tiles in enumerate(truth):
        if seat != me:
            total += len(tiles)
            right += len(set(tiles) & set(holdings[seat]))
    return right / total


def test_a_longer_burn_in_draws_deals_that_explain_the_plays_better():
    """Issue 20, session 18: ``burn_in`` proposals per unseen tile before each chain's
    first kept deal (0: the set's own, ``posterior.BURN_IN_PER_TILE``, which it gives when
    named). Her 32 short chains start from uniform deals; a longer burn-in takes them
    further towards the belief, so against Ninos their deals are likelier under it and put
    more of the other seats' tiles in the right seat (the same positions and seeds)."""
    from dominoes.bots import posterior

    def drawn(burn_in: float):
        def draw(view, knowledge, rng):
            deals = posterior_worlds(view, knowledge, rng, 32, burn_in=burn_in)
            return [deal for deal, _ in deals]

        return draw

    informative, longer, shipped = _compare(7, drawn(8.0), drawn(0.0), same_seed=True)
    assert informative >= 10
    assert longer[0] > shipped[0]
    assert longer[1] > shipped[1] + 0.02 * informative
    view = next(view for _, view in nino_positions(4, 40, seed=7) if decisions(view, CLASSIC))
    own = posterior.BURN_IN_PER_TILE[6]
    named = posterior_worlds(view, infer(view), random.Random(1), 32, burn_in=own)
    assert named == posterior_worlds(view, infer(view), random.Random(1), 32)
