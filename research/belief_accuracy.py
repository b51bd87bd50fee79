"""How close Abuela Quelonia's sampled deals are to the true one (a screen of her inference).

    .venv/bin/python -m research.belief_accuracy --profile cuban --positions 200 --seed A

Positions come from Nino-only arena matches (as ``research/quelonia_regret.py``). In each, the
deals she would play out are drawn from the seat's own view (``--sampler``: ``uniform``,
``sampling.sample_world`` with equal weights; ``weighted``, the same deals weighed by
``belief.weigh`` as she shipped before the chain; ``chain``, ``posterior.posterior_worlds``)
and compared with the *true* deal: the share of the other seats' tiles that a sampled deal
puts in the right seat, averaged with the deals' weights, then over positions (with a 95%
interval). Higher is a better reading of the hidden tiles; the true deal scores 1. Also
printed: the same share between two of the sampled deals drawn at random (300 pairs a
position, by weight). For deals drawn independently from a belief that is right, the two
figures are equal; deals more alike than they are like the truth are too few in effect
(a chain that has not moved far) or too sure. Cheap and far less noisy than matches, so it
is for screening only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from dominoes.bots import belief, posterior
from dominoes.bots.knowledge import infer
from dominoes.bots.sampling import sample_world
from research.quelonia_regret import (
    add_chain_arguments,
    add_position_arguments,
    apply_chain_arguments,
    mean_interval,
    positions,
)


def accuracy(truth, holdings, me: int, only: str = "") -> float:
    """The share of the other seats' true tiles that ``holdings`` puts in the right seat
    (``only``: ``partner`` or ``rivals`` at four seats, else every other seat)."""
    right = total = 0
    for seat, tiles in enumerate(truth):
        if seat == me:
            continue
        if only and (seat == (me + 2) % 4) != (only == "partner"):
            continue
        total += len(tiles)
        right += len(set(tiles) & set(holdings[seat]))
    return right / total if total else 1.0


def between(pairs, me: int, rng, count: int = 300) -> float:
    """The mean ``accuracy`` of one sampled deal against another, over ``count`` pairs of
    two different deals of ``pairs`` (``(deal, weight)``) drawn by weight."""
    deals = [deal[0] for deal, _ in pairs]
    weights = [weight for _, weight in pairs]
    total = 0.0
    for _ in range(count):
        first = rng.choices(range(len(deals)), weights)[0]
        rest = [i for i in range(len(deals)) if i != first]
        second = rng.choices(rest, [weights[i] for i in rest])[0]
        total += accuracy(deals[first], deals[second], me)
    return total / count


def sampled(sampler: str, view, knowledge, rng, count: int):
    """``(deal, weight)`` pairs the way ``sampler`` draws them (module doc)."""
    if sampler == "chain":
        worlds = posterior.posterior_worlds(view, knowledge, rng, count)
        return [(world, 1.0 / len(worlds)) for world in worlds]
    worlds = [sample_world(view, knowledge, rng) for _ in range(count)]
    if sampler == "uniform":
        return [(world, 1.0 / count) for world in worlds]
    return list(zip(worlds, belief.weigh(view, knowledge.rules, worlds), strict=True))


def at_least_two(text: str) -> int:
    """An argparse type: a whole number, 2 or more (two deals make a pair)."""
    value = int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"must be 2 or more: {text}")
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_position_arguments(parser, positions=200, seed="A")
    parser.add_argument("--deals", type=at_least_two, default=200, help="deals a position")
    parser.add_argument("--sampler", choices=["uniform", "weighted", "chain"], default="chain")
    parser.add_argument("--temperature", type=float, default=posterior.TEMPERATURE)
    parser.add_argument("--thin", type=int, default=posterior.THIN)
    add_chain_arguments(parser)
    parser.add_argument("--share", type=float, default=belief.MIN_EFFECTIVE_SHARE)
    parser.add_argument("--team", action="store_true", help="team Quelonia vs team Nino")
    args = parser.parse_args()
    posterior.TEMPERATURE, posterior.THIN = args.temperature, args.thin
    chains = apply_chain_arguments(args.chains, args.burn_in, args.readings)
    belief.tempered_weights.__defaults__ = (args.share,)
    found = positions(
        args.profile, args.seats, args.target, args.seed, args.positions, args.keep, args.team
    )
    scores, cpu, parts, alike = [], [], {"partner": [], "rivals": []}, []
    for number, (match, view, _) in enumerate(found):
        rng = random.Random(number)
        started = time.thread_time()
        knowledge = infer(view)
        pairs = sampled(args.sampler, view, knowledge, rng, args.deals)
        cpu.append(time.thread_time() - started)
        truth = match.hand.holdings
        scores.append(sum(weight * accuracy(truth, deal[0], view.seat) for deal, weight in pairs))
        alike.append(between(pairs, view.seat, rng))
        if args.seats == 4:
            for only, values in parts.items():
                values.append(
                    sum(w * accuracy(truth, deal[0], view.seat, only) for deal, w in pairs)
                )
    n = len(scores)
    mean, low, high = mean_interval(scores)
    cpu.sort()
    print(
        f"{args.profile} {args.seats} seats, seed {args.seed}, {n} positions, {args.sampler}, "
        f"{args.deals} deals, temperature {args.temperature}, thin {args.thin}, "
        f"{chains}, share {args.share}:\n"
        f"  right seat {mean:.4f} (95% {low:.4f}-{high:.4f}); "
        f"between two deals {sum(alike) / n:.4f}; "
        f"sampling CPU p50 {cpu[n // 2] * 1000:.0f} ms, p95 {cpu[int(n * 0.95)] * 1000:.0f} ms"
        + "".join(f"; {only} {sum(values) / n:.4f}" for only, values in parts.items() if values)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
