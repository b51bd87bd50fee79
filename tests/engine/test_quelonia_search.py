"""Abuela Quelonia's search options (issue 20): likelihood resampling of the sampled deals
(``pool``) and more deals where the two best moves are close (``extend``, ``margin``)."""

from __future__ import annotations

import random

import pytest

from dominoes.bots.quelonia import Quelonia, resample
from tests.support.engine import bot_positions


def test_resample_draws_in_proportion_to_the_weights():
    kept = resample(["alice", "bob", "carol", "dave"], [0.5, 0.0, 0.25, 0.25], 4, random.Random(1))
    assert dict(kept) == {"alice": 0.5, "carol": 0.25, "dave": 0.25}  # bob weighs nothing
    many = resample(list(range(10)), [0.1] * 10, 5, random.Random(2))
    assert len(many) == 5 and sum(weight for _, weight in many) == pytest.approx(1.0)


def test_extend_samples_more_deals_only_where_the_best_moves_are_close():
    view = next(
        view for _, view in bot_positions(4, 10, seed=3, bot="nino") if len(view.legal_moves) > 2
    )
    base = Quelonia(rollouts=60, time_budget=5.0, max_worlds=20)
    close = Quelonia(rollouts=60, time_budget=5.0, max_worlds=20, extend=2, margin=1.0)
    never = Quelonia(rollouts=60, time_budget=5.0, max_worlds=20, extend=2, margin=0.0)
    deals = base.estimate(view, random.Random(4))[0].deals
    assert close.estimate(view, random.Random(4))[0].deals > deals  # a margin of 1: always
    assert never.estimate(view, random.Random(4))[0].deals == deals  # a margin of 0: never


@pytest.mark.parametrize("seats", [3, 4])
def test_with_resampling_she_still_plays_her_own_best_estimate(seats):
    """With ``pool`` and ``extend`` on, ``choose`` still plays the maximum of ``estimate``
    (the match analysis reads the same numbers) and every estimate is a chance."""
    bot = Quelonia(rollouts=80, time_budget=5.0, max_worlds=20, pool=3, extend=1, margin=0.05)
    for index, (_, view) in enumerate(bot_positions(seats, 4, seed=seats, bot="nino")):
        estimates = bot.estimate(view, random.Random(index))
        assert [estimate.move for estimate in estimates] == list(view.legal_moves)
        assert all(0.0 <= estimate.match_value <= 1.0 for estimate in estimates)
        chosen = bot.choose(view, random.Random(index))
        best = max(estimate.match_value for estimate in estimates)
        assert next(e for e in estimates if e.move == chosen).match_value >= best - 1e-5
