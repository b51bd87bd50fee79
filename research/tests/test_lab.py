"""The experiments' Quelonia (``research.lab.LabQuelonia``): with no option given she plays
as the shipped bot; likelihood resampling of uniform deals (``pool``), more deals where
the two best moves are close (``extend``, ``margin``), the longer burn-in. Run with
``pytest research/tests`` (the service's suite never imports research)."""

from __future__ import annotations

import random

import pytest

from dominoes.bots.estimates import resample
from dominoes.bots.quelonia import Quelonia
from research.lab import LabQuelonia as Quelonia_
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
    base = Quelonia_(rollouts=60, time_budget=5.0, max_worlds=20)
    close = Quelonia_(rollouts=60, time_budget=5.0, max_worlds=20, extend=2, margin=1.0)
    never = Quelonia_(rollouts=60, time_budget=5.0, max_worlds=20, extend=2, margin=0.0)
    deals = base.estimate(view, random.Random(4))[0].deals
    assert close.estimate(view, random.Random(4))[0].deals > deals  # a margin of 1: always
    assert never.estimate(view, random.Random(4))[0].deals == deals  # a margin of 0: never


@pytest.mark.parametrize("seats", [3, 4])
def test_with_resampling_she_still_plays_her_own_best_estimate(seats):
    """With ``pool`` and ``extend`` on, ``choose`` still plays the maximum of ``estimate``
    (the match analysis reads the same numbers; ``legible`` off, as it may play the
    advice's move within noise of her best) and every estimate is a chance."""
    bot = Quelonia_(
        rollouts=80, time_budget=5.0, max_worlds=20, pool=3, extend=1, margin=0.05, legible=0.0
    )
    for index, (_, view) in enumerate(bot_positions(seats, 4, seed=seats, bot="nino")):
        estimates = bot.estimate(view, random.Random(index))
        assert [estimate.move for estimate in estimates] == list(view.legal_moves)
        assert all(0.0 <= estimate.match_value <= 1.0 for estimate in estimates)
        chosen = bot.choose(view, random.Random(index))
        best = max(estimate.match_value for estimate in estimates)
        assert next(e for e in estimates if e.move == chosen).match_value >= best - 1e-5


def test_with_no_option_she_plays_as_the_shipped_bot():
    for index, (_, view) in enumerate(bot_positions(4, 6, seed=5, bot="nino")):
        shipped = Quelonia(rollouts=120, time_budget=600.0)
        lab = Quelonia_(rollouts=120, time_budget=600.0)
        assert lab.estimate(view, random.Random(index)) == shipped.estimate(
            view, random.Random(index)
        )


def test_the_burn_in_is_hers_unless_given():
    from dominoes.rules import PROFILES

    classic = PROFILES["classic"]
    assert Quelonia_().option("burn_in", classic, 4) == 0
    assert Quelonia_(burn_in=8.0).option("burn_in", classic, 4) == 8.0
    assert Quelonia_().option("settle", classic, 4) == Quelonia().option("settle", classic, 4)
    with pytest.raises(KeyError):
        Quelonia_().option("rollouts", classic, 4)


def test_the_leader_model_reads_only_the_leading_rival():
    """``LeaderModel`` at three seats: a hand the trailing rival takes costs her nothing;
    the shipped three-way model counts it."""
    from types import SimpleNamespace

    from dominoes.bots.match_value import MatchModel
    from research.lab import LeaderModel

    view = SimpleNamespace(seats=3, seat=0, target=100, scores=(0, 60, 0), rules="classic")
    leader, three_way = LeaderModel(view, False), MatchModel(view, False)
    assert leader.value((2,), 30) == leader.value((), 0)
    assert three_way.value((2,), 30) < three_way.value((), 0)
