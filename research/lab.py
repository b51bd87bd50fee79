"""Abuela Quelonia with every option her experiments try (``LabQuelonia``), and the match
model they compared at three seats (``LeaderModel``). The shipped bot,
``dominoes.bots.quelonia.Quelonia``, fixes each of these; with no argument given a
``LabQuelonia`` plays exactly as she does."""

from __future__ import annotations

import random

from dominoes.bots.belief import weigh
from dominoes.bots.estimates import Totals, resample
from dominoes.bots.knowledge import Knowledge
from dominoes.bots.match_value import UNIT, MatchModel, win_table
from dominoes.bots.posterior import posterior_worlds
from dominoes.bots.quelonia import TIME_BUDGET, Quelonia
from dominoes.bots.sampling import sample_world
from dominoes.rules import Rules
from dominoes.view import SeatView
from research.advice_playout import advice_rollout

#: The options ``LabQuelonia.option`` answers; ``burn_in`` is off (0) unless given.
OPTIONS = ("endgame", "settle", "legible", "burn_in")


class LeaderModel(MatchModel):
    """The match model at three seats before the three-way one: her against the leading
    rival only, each hand hers with chance 1/3 and the leader's with 2/3 (a hand the
    trailing rival took cost her nothing). Elsewhere as ``MatchModel``."""

    def __init__(self, view: SeatView, partnerships: bool) -> None:
        super().__init__(view, partnerships)
        if self.three_way:
            self.three_way = False
            mean = self.mean_points(view.rules, view.seats) / UNIT
            self.table = win_table(self.units, 1.0 / 3.0, mean)


class LabQuelonia(Quelonia):
    """Quelonia with her experiments' options; each left out plays as the shipped bot.

    ``rollouts``/``time_budget``: as hers. ``max_worlds``: sampled deals at most (``None``:
    the table's own). ``belief``: the reading of past plays on or off; ``chain``: the deals
    drawn from it (``posterior``) rather than uniform ones weighed after the fact
    (``belief.weigh``); ``pool`` > 1 samples ``pool`` times the deals and draws the ones
    played in proportion to their weight (``estimates.resample``). ``extend``: more batches
    of deals while the two best moves' match values are less than ``margin`` apart.
    ``settle``, ``legible``, ``endgame``: her partnership options at every table
    (``Quelonia.option``; ``None``: the table's own); ``burn_in`` > 0: proposed swaps per
    unseen tile before each chain's first kept deal (``posterior.posterior_worlds``).
    ``rollout``: ``"greedy"`` (hers) or ``"advice"`` (``research.advice_playout``);
    ``three_seats``: ``"three_way"`` (hers) or ``"leader"`` (``LeaderModel``). Raises
    ``ValueError`` for another ``rollout`` or ``three_seats``."""

    def __init__(
        self,
        rollouts: int | None = None,
        time_budget: float = TIME_BUDGET,
        max_worlds: int | None = None,
        belief: bool = True,
        pool: int = 1,
        extend: int = 0,
        margin: float = 0.0,
        settle: float | None = None,
        chain: bool = True,
        rollout: str | None = None,
        endgame: int | None = None,
        legible: float | None = None,
        burn_in: float | None = None,
        three_seats: str = "three_way",
    ) -> None:
        super().__init__(rollouts, time_budget)
        if rollout not in (None, "greedy", "advice"):
            raise ValueError(f"unknown rollout policy: {rollout}")
        if three_seats not in ("three_way", "leader"):
            raise ValueError(f"unknown three-seat model: {three_seats}")
        self.max_worlds, self.belief, self.pool, self.chain = max_worlds, belief, pool, chain
        self.extend, self.margin = extend, margin
        self.rollout, self.three_seats = rollout, three_seats
        self.settle, self.endgame, self.legible, self.burn_in = settle, endgame, legible, burn_in

    def option(self, name: str, rules: Rules, seats: int) -> float:
        """The given option ``name`` (``OPTIONS``), else hers (``burn_in``: 0). Raises
        ``KeyError`` for another name."""
        if name not in OPTIONS:
            raise KeyError(name)
        given = getattr(self, name)
        if given is not None:
            return given
        return 0 if name == "burn_in" else super().option(name, rules, seats)

    def budget(self, rules: Rules, seats: int) -> tuple[int, int]:
        rollouts, max_worlds = super().budget(rules, seats)
        return rollouts, (max_worlds if self.max_worlds is None else self.max_worlds)

    def _worlds(self, view: SeatView, knowledge: Knowledge, rng: random.Random, count: int):
        """``count`` deals with their weights: from the chain (``chain``), else uniform
        ones weighed by the belief (equal when not ``belief``), the negligible ones dropped,
        heaviest first."""
        if self.chain and self.belief:
            burn_in = self.option("burn_in", knowledge.rules, view.seats)
            drawn = posterior_worlds(view, knowledge, rng, count, burn_in=burn_in)
            return [(world, 1.0 / len(drawn)) for world in drawn]
        candidates = [self.sample(view, knowledge, rng) for _ in range(count * self.pool)]
        if not self.belief:
            return [(world, 1.0 / count) for world in candidates[:count]]
        weights = weigh(view, knowledge.rules, candidates)
        if self.pool > 1:
            return resample(candidates, weights, count, rng)
        cut = max(weights) * 1e-3
        kept = sorted(
            ((weight, i) for i, weight in enumerate(weights) if weight >= cut),
            key=lambda item: -item[0],
        )
        return [(candidates[i], weight) for weight, i in kept]

    def sample(self, view: SeatView, knowledge: Knowledge, rng: random.Random):
        """One uniform hidden deal consistent with ``knowledge`` (``sampling.sample_world``):
        ``(holdings per seat, stock in draw order)``."""
        return sample_world(view, knowledge, rng)

    def _model(self, view: SeatView, rules: Rules) -> MatchModel:
        if self.three_seats == "leader":
            return LeaderModel(view, rules.partnerships(view.seats))
        return super()._model(view, rules)

    def _policy(self, view: SeatView, knowledge: Knowledge, rules: Rules):
        if self.rollout == "advice":
            return advice_rollout(view, knowledge, rules)
        return super()._policy(view, knowledge, rules)

    def _batches(self, view, knowledge, rng, worlds: int, totals: Totals, play) -> bool:
        """Her first batch, then up to ``extend`` more while the two best moves are less
        than ``margin`` apart."""
        for batch in range(1 + self.extend):
            if batch and not totals.close(self.margin):
                break
            if not play(self._worlds(view, knowledge, rng, worlds)):
                return False
        return True
