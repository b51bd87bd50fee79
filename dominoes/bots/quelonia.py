"""Abuela Quelonia, the hard bot: counting, inference and determinized Monte Carlo.

Her numbers were chosen in the arena against Nino (``python -m research.quelonia_variants``;
what each run measured is in research/NOTEBOOK.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from dominoes.bots.base import Bot
from dominoes.bots.endgame import solved_playout
from dominoes.bots.estimates import MoveEstimate, Totals
from dominoes.bots.knowledge import Knowledge, infer
from dominoes.bots.match_value import MatchModel
from dominoes.bots.nino import exhausted_pips, score_move
from dominoes.bots.posterior import costed_set, posterior_worlds
from dominoes.bots.simulate import greedy_playout, move_key, world_position
from dominoes.rules import Rules
from dominoes.state import Play
from dominoes.tiles import Tile
from dominoes.view import SeatView

#: Simulations (sampled deal x legal move) per decision, by the set's top pip (6 or 9; a
#: larger set is costed as double-nine); the time guard stops earlier if needed.
ROLLOUTS = {6: 2000, 9: 4000}
#: Her search options at tables in partnerships (R2), by the set's top pip; elsewhere all
#: are 0 (off). ``endgame``: tiles left in the hands from which a playout is solved exactly
#: (``endgame.solved_playout``); ``settle``: standard errors within which she spends her
#: unspent simulations on more deals; ``legible``: standard errors within which she plays
#: the advice's move, which her partner reads best.
PARTNERSHIP_OPTIONS = {
    6: {"endgame": 8, "settle": 2.0, "legible": 1.0},
    9: {"endgame": 0, "settle": 0.0, "legible": 1.0},
}
#: Fewest sampled worlds per decision, and the most by the set's top pip.
MIN_WORLDS = 16
MAX_WORLDS = {6: 400, 9: 800}
#: Tables where she spends more than her set's budget, ``(top pip, seats) -> (simulations,
#: sampled deals at most)``: alone against two at double-six.
TABLE_BUDGETS = {(6, 3): (3000, 600)}
#: Seconds of one core's thinking (CPU time of the thread, so a loaded machine does not
#: change the play) per move; the guard stops sampling new worlds at 75% of it.
TIME_BUDGET = 1.0

#: One sampled deal: ``(holdings per seat, stock in draw order)``.
World = tuple[list[list[Tile]], list[Tile]]
#: A playout: plays a position (in place) to its end, returns ``pos.result()``.
Playout = Callable[..., tuple]


class Quelonia(Bot):
    """Abuela Quelonia (hard) counts every tile and thinks the hand through.

    From the public log she reconstructs the ends at every moment and works out which pips
    each seat lacks (a seat that drew or passed on an end holds no tile with it; a tile it
    drew and kept does not fit the ends of that moment). She then samples hidden deals
    consistent with all of it from the belief that the other seats played as the rules
    page's advice says (heavy tiles and doubles first, variety kept: ``belief``), by a
    Metropolis chain over swaps of unseen tiles (``posterior``). For every legal play she
    plays the rest of the hand out in each sampled deal, everyone following a quick
    dump-the-heavy-tiles policy (``greedy_playout``; solved exactly near the end at
    double-six partnerships), the same deals and order for every play (common random
    numbers). Each outcome is valued as her side's chance of winning the match given the
    scoreboard and the target (``MatchModel``, R25); with a partner she plays for the team.
    Ties go to Nino's advice. Deterministic for a given seed; thinking is bounded by a
    number of simulations, with a clock as a guard.

    ``rollouts``: simulations per decision (``None``: the table's own, ``budget``);
    ``time_budget``: seconds of the thread's CPU time (the guard stops at 75% of it).
    The search's other choices are methods (``option``, ``budget``, ``_worlds``,
    ``_model``, ``_policy``, ``_batches``): a variant overrides them in a subclass.
    """

    name = "quelonia"
    display_name = "Abuela Quelonia"
    level = "hard"

    def __init__(self, rollouts: int | None = None, time_budget: float = TIME_BUDGET) -> None:
        self.rollouts = rollouts
        self.time_budget = time_budget

    def option(self, name: str, rules: Rules, seats: int) -> float:
        """The search option ``name`` (``"endgame"``, ``"settle"`` or ``"legible"``) at a
        table of ``seats`` under ``rules``: ``PARTNERSHIP_OPTIONS`` of the set's top pip at
        tables in partnerships (R2), 0 (off) elsewhere. Raises ``KeyError`` for another
        name."""
        value = PARTNERSHIP_OPTIONS[costed_set(rules)][name]
        return value if rules.partnerships(seats) else 0

    def budget(self, rules: Rules, seats: int) -> tuple[int, int]:
        """``(simulations, sampled deals at most)`` per decision under ``rules`` at a
        table of ``seats``: the table's own (``TABLE_BUDGETS``, else ``ROLLOUTS`` and
        ``MAX_WORLDS`` by the set's top pip), the simulations ``rollouts`` when given."""
        size = costed_set(rules)
        own = TABLE_BUDGETS.get((size, seats), (ROLLOUTS[size], MAX_WORLDS[size]))
        return (own[0] if self.rollouts is None else self.rollouts), own[1]

    def _worlds(
        self, view: SeatView, knowledge: Knowledge, rng: random.Random, count: int
    ) -> list[tuple[World, float]]:
        """``count`` sampled deals drawn from the belief (``posterior.posterior_worlds``),
        each with the weight ``1 / count``."""
        drawn = posterior_worlds(view, knowledge, rng, count)
        return [(world, 1.0 / len(drawn)) for world in drawn]

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
        model = self._model(view, rules)
        rollouts, max_worlds = self.budget(rules, view.seats)
        worlds = max(MIN_WORLDS, min(max_worlds, rollouts // len(moves)))
        keys = [move_key(rules, move) for move in moves]
        totals = Totals(len(moves))
        deadline = start + self.time_budget * 0.75
        playout = self._playout(view, knowledge, rules, model)

        def play(sampled: list[tuple[World, float]]) -> bool:
            return self._play_batch(playout, view, rules, model, keys, sampled, totals, deadline)

        if not self._batches(view, knowledge, rng, worlds, totals, play):
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

    def _model(self, view: SeatView, rules: Rules) -> MatchModel:
        """The value of a hand's outcome for her side (``MatchModel``)."""
        return MatchModel(view, rules.partnerships(view.seats))

    def _policy(self, view: SeatView, knowledge: Knowledge, rules: Rules) -> Playout:
        """Every seat's policy in a playout: ``greedy_playout`` (a position, and the tiles
        left at which it stops for the solved endgame)."""
        return greedy_playout

    def _batches(self, view, knowledge, rng, worlds: int, totals: Totals, play) -> bool:
        """Sample ``worlds`` deals (``_worlds``) and ``play`` them (every move in each,
        added to ``totals``); False when the time guard stopped it."""
        return play(self._worlds(view, knowledge, rng, worlds))

    def _playout(self, view: SeatView, knowledge: Knowledge, rules: Rules, model: MatchModel):
        """The playout of a sampled deal: ``_policy``, solved exactly for ``model``'s value
        once ``endgame`` tiles are left (``endgame.solved_playout``) when that option is on."""
        tiles_left = int(self.option("endgame", rules, view.seats))
        policy = self._policy(view, knowledge, rules)
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
