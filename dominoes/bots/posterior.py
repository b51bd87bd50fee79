"""Sampling hidden deals in proportion to how well they explain the past plays (MCMC).

``belief.weigh`` weighs deals drawn uniformly (``sampling``): with ten tiles a seat and
fifteen never seen (``cuban``) few uniform deals explain the other seats' plays, so the
weights collapse onto a handful of deals and are tempered back to a flat average. Here
the deals are drawn *from* the belief instead, by a Metropolis chain: start from a
consistent deal (``sampling.sample_world``), propose swapping two unseen tiles between
two holders (two other seats, or a seat and the stock or the never-seen tiles), keep the
swap when both tiles may sit in their new slots (the voids of ``knowledge``) with the
chance ``min(1, L(new) / L(old))``, where ``L`` is the likelihood that soft
advice-followers made the plays of the log (``belief``), each seat read by a weighed mix
of a sharp and a soft reading (``READINGS``, at double-six in partnerships), raised to a
power ``temperature``. Only the two seats whose tiles change are re-scored, and each
seat's score is remembered by its holding, so a chain step costs one or two seats' plays.
Several chains from independent starts, each thinned, give deals of equal weight.

Only public information is used (R31): the log, the line, the counts, the viewer's tiles
and the sampled deal itself.
"""

from __future__ import annotations

import math
import random

from dominoes.bots.belief import (
    Decision,
    decisions,
    play_gaps,
    play_log_likelihood,
    sharp_log_likelihood,
)
from dominoes.bots.knowledge import Knowledge, pip_bits
from dominoes.bots.sampling import sample_slots, sample_world, world_of
from dominoes.playout import Tables, tables_for
from dominoes.rules import Rules
from dominoes.tiles import Tile
from dominoes.view import SeatView

#: Chains run from independent starting deals (the deals asked for are shared among
#: them), by the set's top pip: many short chains give deals as unlike each other as they
#: are unlike the truth, where one chain's deals are much alike (``python -m
#: research.belief_accuracy``); at double-nine 32 would cost over the CPU goal.
CHAINS = {6: 32, 9: 4}
#: Proposed swaps before a chain's first kept deal, per unseen tile, by the set's top pip.
BURN_IN_PER_TILE = {6: 2, 9: 4}
#: Proposed swaps between two kept deals of one chain.
THIN = 4
#: The power of the likelihood the chain samples from (1: the belief as it is;
#: ``python -m research.belief_accuracy --temperature T``).
TEMPERATURE = 3.0
#: How a seat's plays are read at double-six tables in partnerships (``readings_for``):
#: ``(prior weight, sharpness)`` pairs (``belief.sharp_log_likelihood``). Each seat's
#: likelihood is the weighed mean of its whole run of plays under each reading (then
#: raised to ``TEMPERATURE``), so each seat is read as its own plays show, without knowing
#: who sits there: a Nino, who always plays the advice's top option, mostly by the sharp
#: reading; a seat that plays otherwise (a person, a search, her partner) by the soft one
#: (``python -m research.pypi_sharpness``).
READINGS: tuple[tuple[float, float], ...] | None = ((0.5, 1.0), (0.5, 0.1))


def costed_set(rules: Rules) -> int:
    """The set a budget keyed by top pip is read at under ``rules``: 6 (double-six or
    smaller) or 9 (double-nine; a larger set is costed as double-nine)."""
    return 6 if rules.max_pip <= 6 else 9


def readings_for(rules: Rules, seats: int) -> tuple[tuple[float, float], ...] | None:
    """The readings of a seat's plays (``READINGS``) at a table of ``seats`` under
    ``rules``, ``None`` for one reading at ``belief.SHARPNESS``: the mix only at
    double-six tables in partnerships (R2), where it was measured to help."""
    if rules.partnerships(seats) and rules.max_pip <= 6:
        return READINGS
    return None


World = tuple[list[list[Tile]], list[Tile]]


class _SeatScores:
    """The log-likelihood of one seat's past plays by its holding mask, remembered."""

    def __init__(self, tables: Tables, rules: Rules, seats: int, found: list[Decision]):
        self.tables, self.rules, self.seats = tables, rules, seats
        self.readings = readings_for(rules, seats)
        self.by_seat: dict[int, list[tuple[int, Decision]]] = {}
        for number, decision in enumerate(found):
            self.by_seat.setdefault(decision.seat, []).append((number, decision))
        self.cache: dict = {}
        self.known: dict[tuple[int, int], float] = {}

    def __call__(self, seat: int, mask: int) -> float:
        key = (seat, mask)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = self._compute(seat, mask)
        return value

    def _compute(self, seat: int, mask: int) -> float:
        plays = self.by_seat.get(seat, ())
        arguments = (self.tables, self.rules, self.seats)
        readings = self.readings
        if readings is None:  # one reading, at belief.SHARPNESS
            return sum(
                play_log_likelihood(*arguments, decision, number, mask | decision.after, self.cache)
                for number, decision in plays
            )
        totals = [math.log(weight) for weight, _ in readings]
        for number, decision in plays:
            gaps = play_gaps(*arguments, decision, number, mask | decision.after, self.cache)
            if gaps is not None:
                for reading, (_, sharpness) in enumerate(readings):
                    totals[reading] += sharp_log_likelihood(gaps, sharpness)
        top = max(totals)
        return top + math.log(sum(math.exp(total - top) for total in totals))


def posterior_worlds(
    view: SeatView,
    knowledge: Knowledge,
    rng: random.Random,
    count: int,
    temperature: float | None = None,
    burn_in: float = 0.0,
) -> list[World]:
    """``count`` hidden deals ``(holdings, stock)`` drawn from the belief (module doc),
    each as ``sampling.sample_world`` returns it (the viewer's own tiles in its seat, the
    stock in a random draw order). With no informative play in the log the deals are
    ``sample_world``'s own. ``burn_in``: proposed swaps per unseen tile before each
    chain's first kept deal (0: the set's own, ``BURN_IN_PER_TILE``). Deterministic for a
    given ``rng`` state; raises nothing."""
    if temperature is None:
        temperature = TEMPERATURE
    rules = knowledge.rules
    found = decisions(view, rules)
    if not found or count <= 0:
        return [sample_world(view, knowledge, rng) for _ in range(count)]
    tables = tables_for(rules.max_pip)
    scores = _SeatScores(tables, rules, view.seats, found)
    size = costed_set(rules)
    chains = min(CHAINS[size], count)
    burn_in = burn_in if burn_in > 0 else BURN_IN_PER_TILE[size]
    worlds: list[World] = []
    for chain in range(chains):
        wanted = count // chains + (chain < count % chains)
        worlds += _chain(view, knowledge, rng, tables, scores, wanted, temperature, burn_in)
    return worlds


def _chain(view, knowledge, rng, tables, scores, wanted, temperature, burn_in) -> list[World]:
    """One Metropolis chain from a fresh ``sample_world`` deal: ``wanted`` thinned deals
    after ``burn_in`` proposals per unseen tile."""
    owners, masks, tiles = sample_slots(view, knowledge, rng)
    # The start is sample_world's deal: its stock in the random draw order it deals.
    first_stock = owners.index(-1) if -1 in owners else len(owners)
    stock = tiles[first_stock:]
    rng.shuffle(stock)
    tiles[first_stock:] = stock
    index = tables.index
    held = [0] * view.seats
    for slot, tile in enumerate(tiles):
        if owners[slot] >= 0:
            held[owners[slot]] |= 1 << index[tile]
    scored_seats = [seat for seat in range(view.seats) if seat in scores.by_seat]
    scored_slots = [slot for slot, owner in enumerate(owners) if owner in scores.by_seat]
    size = len(tiles)
    if not scored_slots or size < 2:
        return [sample_world(view, knowledge, rng) for _ in range(wanted)]
    bits = [pip_bits(tile) for tile in tiles]
    log_l = {seat: scores(seat, held[seat]) for seat in scored_seats}
    burn_in, thin = int(burn_in * size), THIN
    steps = burn_in + thin * wanted
    kept: list[World] = []
    for step in range(steps):
        first = scored_slots[rng.randrange(len(scored_slots))]
        second = rng.randrange(size)
        a, b = owners[first], owners[second]
        if a != b and not masks[second] & bits[first] and not masks[first] & bits[second]:
            _propose(first, second, a, b, tiles, bits, held, log_l, scores, index, rng, temperature)
        if step >= burn_in and (step - burn_in) % thin == thin - 1:
            kept.append(world_of(view, owners, tiles, rng))
    while len(kept) < wanted:
        kept.append(world_of(view, owners, tiles, rng))
    return kept[:wanted]


def _propose(first, second, a, b, tiles, bits, held, log_l, scores, index, rng, temperature):
    """Swap the tiles of slots ``first`` (seat ``a``, whose plays are scored) and ``second``
    (seat ``b``, -1 for the stock) with the Metropolis chance; updates the chain's state
    in place when the swap is kept."""
    moved = (1 << index[tiles[first]]) ^ (1 << index[tiles[second]])
    new_a = held[a] ^ moved
    new_a_score = scores(a, new_a)
    change = new_a_score - log_l[a]
    scored_b = b in log_l
    if scored_b:
        new_b_score = scores(b, held[b] ^ moved)
        change += new_b_score - log_l[b]
    if change < 0 and rng.random() >= math.exp(temperature * change):
        return
    held[a] = new_a
    log_l[a] = new_a_score
    if scored_b:  # an unscored seat's holding is never read
        held[b] ^= moved
        log_l[b] = new_b_score
    tiles[first], tiles[second] = tiles[second], tiles[first]
    bits[first], bits[second] = bits[second], bits[first]
