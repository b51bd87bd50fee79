"""Abuela Quelonia, the hard bot: counting, inference and determinized Monte Carlo."""

from __future__ import annotations

import random
import time

from dominoes.bots.base import Bot
from dominoes.bots.belief import weigh
from dominoes.bots.endgame import solved_playout
from dominoes.bots.estimates import MoveEstimate, Totals, resample
from dominoes.bots.knowledge import Knowledge, infer
from dominoes.bots.match_value import MatchModel
from dominoes.bots.nino import exhausted_pips, score_move
from dominoes.bots.posterior import costed_set, posterior_worlds
from dominoes.bots.sampling import sample_world
from dominoes.bots.simulate import advice_rollout, greedy_playout, move_key, world_position
from dominoes.rules import Rules
from dominoes.state import Play
from dominoes.tiles import Tile
from dominoes.view import SeatView

#: Simulations (world x move) per decision, by the set's top pip (6 or 9; a larger set is
#: costed as double-nine); the time guard below stops earlier if needed. Double-six: 2000
#: (up to 400 worlds) won 65.9% of the hands against Nino at four seats where 400 (up to
#: 100 worlds) won 60.5%, same seeds. Double-nine: ten tiles a seat give more legal plays
#: and fifteen tiles never seen, and 4000 (up to 800 worlds) won 146/200 ``cuban``
#: matches against team Nino where 2000 won 128/200 on the same deals, p95 366 ms of CPU
#: a choice on a quiet machine (docs/bots.md, session 10).
ROLLOUTS = {6: 2000, 9: 4000}
#: The rollout policy of every seat in a sampled deal where the constructor leaves it
#: ``None`` (the benches set it): ``greedy`` (dump the heavy tiles, keep tiles that
#: follow) or ``advice`` (Nino's whole score, with the public voids; at classic four
#: seats, until her solved endgame, 1083/1490 = 72.7% of the hands against team Nino
#: where greedy won 1096/1510 = 72.6% on the same fresh deals, seed ``W19``, for twice
#: the CPU: docs/bots.md, session 19).
ROLLOUT = "greedy"
#: Her search options at tables in partnerships (R2), by the set's top pip, where the
#: constructor leaves them ``None``; elsewhere they are off. ``endgame``: tiles left in the
#: hands from which a playout is solved exactly (``endgame.solved_playout``); ``settle``:
#: standard errors within which she spends her unspent simulations on more deals;
#: ``legible``: standard errors within which she plays the advice's move for her partner.
#: At double-six the three together won 1128/1596 = 70.7% of the hands against team Nino
#: at classic four seats where she won 1061/1547 = 68.6% without them (fresh seed
#: ``H14``, 200 matches; matches 193/200 against 182/200), and 243/386 = 63.0% of the
#: decided hands against PyPI ``dominoes`` where she won 239/390 = 61.3% (seed 57), for a
#: CPU p95 of about 300 ms a choice (docs/bots.md, session 14). At double-nine (``cuban``)
#: only ``legible`` is on, at no cost in CPU: there her partner reads her plays sharply, as
#: a Nino's (one reading, ``posterior.readings_for``), so plays that follow the advice
#: tell him more: 150/200 matches against team Nino where she won 130/200 on the same
#: fresh deals (seed ``T15``), and 153/200 on deals never run before (``U16``;
#: docs/bots.md, session 16). Alone at three seats they were not shown to
#: help. ``burn_in`` (0: the set's own, ``posterior.BURN_IN_PER_TILE``) stays 0: 8
#: proposals per unseen tile read the hidden tiles better (0.487 of the other seats'
#: tiles in the right seat against 0.457, Nino-only positions) but won 1115/1611 = 69.2%
#: of the hands against team Nino where the shipped 2 won 1111/1566 = 70.9% on the same
#: fresh deals (seed ``S18``, 200 matches), for a CPU p95 of about 300 against 220 ms a
#: choice (docs/bots.md, session 18).
PARTNERSHIP_OPTIONS = {
    6: {"endgame": 8, "settle": 2.0, "legible": 1.0, "burn_in": 0.0},
    9: {"endgame": 0, "settle": 0.0, "legible": 1.0, "burn_in": 0.0},
}
#: The benches' override of those options at every table (``None``: as above).
ENDGAME: int | None = None
SETTLE: float | None = None
LEGIBLE: float | None = None
BURN_IN: float | None = None
#: Fewest sampled worlds per decision, and the most by the set's top pip.
MIN_WORLDS = 16
MAX_WORLDS = {6: 400, 9: 800}
#: Tables where she spends more than her set's budget, ``(top pip, seats) -> (simulations,
#: sampled deals at most)``. Alone against two (three seats) a choice costs her about
#: half what it does at four (p95 110 ms of CPU at 2000); 3000 (up to 600 deals, p95
#: 162 ms) won 366/600 matches against two Ninos where 2000 won 353/600 on the same
#: fresh deals, 43.7% of the hands against 42.6%: inside the noise, kept because the
#: estimates are less noisy for a cost the CPU goal leaves room for (docs/bots.md,
#: session 10).
TABLE_BUDGETS = {(6, 3): (3000, 600)}
#: Seconds of one core's thinking (CPU time of the thread, so a loaded machine does not
#: change the play) per move; the guard stops sampling new worlds at 75% of it.
TIME_BUDGET = 1.0


class Quelonia(Bot):
    """Abuela Quelonia (hard) counts every tile and thinks the hand through.

    From the public log she reconstructs the ends at every moment and works out which pips
    each seat lacks (a seat that drew or passed on an end holds no tile with it; a tile it
    drew and kept does not fit the ends of that moment). She then samples hidden deals
    consistent with all of it: the unseen tiles (the set minus her own tiles and the line)
    dealt to the other seats and the stock, each seat getting its tile count and none of
    its known voids, drawn in proportion to how well they explain the other seats' past
    plays, read as a player following the rules page's advice would make them (heavy
    tiles and doubles first, variety kept: ``belief``), so a seat that kept back a heavy
    tile it could have played probably did not hold one (``posterior``: a Metropolis
    chain over swaps of unseen tiles; with ``chain=False``, uniform deals weighed by that
    likelihood after the fact, as before issue 20's second round). For every legal
    play she plays the rest of the hand out in each sampled deal, everyone following a
    quick dump-the-heavy-tiles policy, the same deals and the same order for every play
    (common random numbers), each result counted with its deal's weight. Each outcome is
    valued as her side's chance of winning the match given the scoreboard and the target (so near
    the end a safe small win can beat a risky big one); with a partner she plays for the
    team. Ties go to Nino's advice. Deterministic for a given seed; thinking time is
    bounded (a fixed number of simulations, with a clock as a guard).

    Arguments: ``rollouts`` simulations (deal x move) per decision and ``max_worlds``
    sampled deals at most (``None``: the table's own, ``budget``; a number: that at
    every table); ``time_budget`` seconds of the thread's
    CPU time (the guard stops at 75% of it); ``belief`` the reading of past plays on or
    off; ``chain`` draws the deals from it (``posterior``) rather than weighing uniform ones;
    ``rollout`` every seat's policy in the playouts (``None``: ``ROLLOUT``), ``"greedy"`` or
    ``"advice"`` (Nino's whole score with the public voids, ``simulate.advice_playout``;
    measured no better for 1.6 times the CPU, docs/bots.md); any other raises
    ``ValueError``. Off by default (issue 20, measured in docs/bots.md): ``pool`` > 1
    samples ``pool`` times the deals and draws the ones played out in proportion to their
    weight (systematic resampling; the sampling and weighing of the pool run before the
    clock's first check); ``extend`` more batches of deals while the two best moves' match
    values (0-1) are less than ``margin`` apart. On at double-six tables in partnerships
    (``option``, ``PARTNERSHIP_OPTIONS``), off elsewhere, unless given: ``settle`` > 0
    spends the simulations the cap on deals left unspent (``budget``) on more deals while
    the two best moves' paired difference in match value is less than ``settle`` standard
    errors; ``legible`` > 0, in partnerships, plays the advice's move (Nino's top score)
    while her best leads it by less than ``legible`` standard errors (``Totals.within``), so
    her partner, who reads her plays as the advice's, reads her tiles better; ``endgame``
    solves every playout exactly once that many tiles are left in the hands
    (``endgame.solved_playout``). Off everywhere unless given (docs/bots.md, session 18):
    ``burn_in`` > 0 runs each of her chains that many proposed swaps per unseen tile
    before its first kept deal (``posterior.posterior_worlds``; 0: the set's own,
    ``posterior.BURN_IN_PER_TILE``), so her many short chains start nearer the belief.
    """

    name = "quelonia"
    display_name = "Abuela Quelonia"
    level = "hard"

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
    ) -> None:
        self.rollouts = rollouts
        self.time_budget = time_budget
        self.max_worlds = max_worlds
        self.belief = belief
        self.pool = pool
        self.extend = extend
        self.margin = margin
        self.settle = settle
        self.chain = chain
        if rollout not in (None, "greedy", "advice"):
            raise ValueError(f"unknown rollout policy: {rollout}")
        self.rollout = rollout
        self.endgame = endgame
        self.legible = legible
        self.burn_in = burn_in

    def option(self, name: str, rules: Rules, seats: int) -> float:
        """The search option ``name`` (``"endgame"``, ``"settle"``, ``"legible"`` or
        ``"burn_in"``) at a table of ``seats`` under ``rules``: the constructor's; else the
        benches' override (``ENDGAME``, ``SETTLE``, ``LEGIBLE``, ``BURN_IN``); else
        ``PARTNERSHIP_OPTIONS`` of the set's top pip at tables in partnerships (R2), 0
        (off) elsewhere. Raises ``KeyError`` for another name."""
        overrides = {"endgame": ENDGAME, "settle": SETTLE, "legible": LEGIBLE, "burn_in": BURN_IN}
        override = overrides[name]
        for given in (getattr(self, name), override):
            if given is not None:
                return given
        if rules.partnerships(seats):
            return PARTNERSHIP_OPTIONS.get(costed_set(rules), {}).get(name, 0)
        return 0

    def budget(self, rules: Rules, seats: int) -> tuple[int, int]:
        """``(simulations, sampled deals at most)`` per decision under ``rules`` at a
        table of ``seats``: the given ones, or the table's own (``TABLE_BUDGETS``, else
        ``ROLLOUTS`` and ``MAX_WORLDS`` by the set's top pip)."""
        size = costed_set(rules)
        own = TABLE_BUDGETS.get((size, seats), (ROLLOUTS[size], MAX_WORLDS[size]))
        rollouts = own[0] if self.rollouts is None else self.rollouts
        max_worlds = own[1] if self.max_worlds is None else self.max_worlds
        return rollouts, max_worlds

    def _worlds(
        self, view: SeatView, knowledge: Knowledge, rng: random.Random, count: int
    ) -> list[tuple[tuple[list[list[Tile]], list[Tile]], float]]:
        """``count`` sampled deals with their weights: drawn from the belief with equal
        weights (``chain``), else uniform ones weighed by ``belief.weigh`` (equal when not
        ``belief``), the negligible ones dropped, heaviest first."""
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

    def sample(
        self, view: SeatView, knowledge: Knowledge, rng: random.Random
    ) -> tuple[list[list[Tile]], list[Tile]]:
        """One hidden deal consistent with ``knowledge`` (``sampling.sample_world``):
        ``(holdings per seat, stock in draw order)``."""
        return sample_world(view, knowledge, rng)

    def choose(self, view: SeatView, rng: random.Random) -> Play:
        start = time.thread_time()
        moves = list(view.legal_moves)
        knowledge = infer(view)
        exhausted = exhausted_pips(knowledge)
        prior = [score_move(view, knowledge, move, exhausted) for move in moves]
        if len(moves) == 1:
            return moves[0]
        for move, score in zip(moves, prior, strict=True):
            if score >= 1e6:
                return move  # domino: nothing can beat going out now
        totals = self._simulate(view, knowledge, moves, rng, start)
        estimates = totals.estimates(moves)
        # Break near-ties with Nino's score (scaled far below one simulation's weight);
        # with no simulation at all, Nino's choice is hers.
        ranked = [estimates[i].match_value + 1e-6 * prior[i] for i in range(len(moves))]
        best = max(range(len(moves)), key=lambda i: ranked[i])
        legible = self.option("legible", knowledge.rules, view.seats)
        if legible and knowledge.rules.partnerships(view.seats):
            advised = max(range(len(moves)), key=prior.__getitem__)
            if totals.within(best, advised, legible):
                return moves[advised]  # the partner reads her plays as the advice's
        return moves[best]

    def estimate(self, view: SeatView, rng: random.Random) -> tuple[MoveEstimate, ...]:
        """Her estimate of every legal move of ``view`` (R31: only what that seat sees),
        in ``view.legal_moves`` order, from the same sampled deals and playouts as
        ``choose`` (no shortcut: a single legal move or a domino is simulated too).
        Deterministic for a given ``rng`` state. Raises nothing; a view with no legal
        move gives ``()``."""
        start = time.thread_time()
        moves = list(view.legal_moves)
        if not moves:
            return ()
        return tuple(self._simulate(view, infer(view), moves, rng, start).estimates(moves))

    def _simulate(
        self,
        view: SeatView,
        knowledge: Knowledge,
        moves: list[Play],
        rng: random.Random,
        start: float,
    ) -> Totals:
        """Every move of ``moves`` played out in the same weighted sampled deals (common
        random numbers) until the simulations or the time guard run out; the totals."""
        rules = knowledge.rules
        model = MatchModel(view, rules.partnerships(view.seats))
        rollouts, max_worlds = self.budget(rules, view.seats)
        worlds = max(MIN_WORLDS, min(max_worlds, rollouts // len(moves)))
        keys = [move_key(rules, move) for move in moves]
        totals = Totals(len(moves))
        deadline = start + self.time_budget * 0.75
        playout = self._playout(view, knowledge, rules, model)
        for batch in range(1 + self.extend):
            if batch and not totals.close(self.margin):
                break
            sampled = self._worlds(view, knowledge, rng, worlds)
            if not self._play_batch(playout, view, rules, model, keys, sampled, totals, deadline):
                return totals
        settle = self.option("settle", rules, view.seats)
        while settle > 0 and totals.undecided(settle):
            more = min(max_worlds, rollouts // len(moves) - totals.count)
            if more < MIN_WORLDS:
                break
            # Each batch's weights sum to 1: scaled by its size, every deal weighs alike.
            scale = more / worlds
            sampled = [(world, w * scale) for world, w in self._worlds(view, knowledge, rng, more)]
            if not self._play_batch(playout, view, rules, model, keys, sampled, totals, deadline):
                break
        return totals

    def _playout(self, view: SeatView, knowledge: Knowledge, rules, model: MatchModel):
        """The rollout policy as a function of a position: ``greedy_playout``, or
        ``advice_playout`` from the public voids and line of ``knowledge``/``view``; with
        ``endgame`` > 0, that policy until that many tiles are left, then solved for
        ``model``'s value (``endgame.solved_playout``; before session 19 the advice
        policy was silently replaced by the greedy one there)."""
        tiles_left = int(self.option("endgame", rules, view.seats))
        policy = greedy_playout
        if (self.rollout or ROLLOUT) == "advice":
            policy = advice_rollout(view, knowledge, rules)
        if tiles_left:
            return solved_playout(
                model.value, view.seat, model.partnerships, tiles_left, partial=policy
            )
        return policy

    def _play_batch(self, playout, view, rules, model, keys, sampled, totals, deadline) -> bool:
        """Every move (``keys``) played out in each sampled deal of ``sampled`` (common
        random numbers), added to ``totals``; False when the time guard stopped it."""
        for (holdings, stock), weight in sampled:
            try:
                root = world_position(view, rules, holdings, stock)
            except ValueError:  # a view the sampler cannot complete: should not happen
                continue
            values, taken = [], []
            for tile, end in keys:
                pos = root.copy()
                pos.play(tile, end)
                _, winners, hand_points, _ = playout(pos)
                values.append(model.value(winners, hand_points))
                taken.append(model.hand_points(winners, hand_points))
            totals.add_deal(weight, values, taken)
            if time.thread_time() > deadline:
                return False
        return True
