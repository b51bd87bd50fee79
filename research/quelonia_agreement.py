"""How often Abuela Quelonia's choice is the one she would make with far more thinking.

    .venv/bin/python -m research.quelonia_agreement --positions 150 --seed AGR \\
        --variant 4,4,2000,400 --variant 32,2,2000,400

Positions are Quelonia's own choices in matches of team Quelonia against team Nino
(``quelonia_regret.positions`` with ``team``; four seats, target 100, ``--profile``). In
each, an *oracle* (Quelonia from the same view with ``--oracle`` chains, burn-in per tile,
simulations and sampled deals: far more work than a move may cost) values every legal
play; each ``--variant`` (``chains,burn-in per tile,simulations,deals``) then chooses from
the same view and seed, as she plays (``Quelonia.choose``). Printed per variant: the share
of positions where it chose the oracle's play, the mean loss (the oracle's value of its
best play minus that of the variant's, in match-win chance) and the CPU per choice. It
measures how close a budget and a sampler come to her own search with more of both (the
noise and the correlation of too few, too alike deals), not whether that search is
right: the arena is for that. No clock; only the seat's view is read (R31).
"""

from __future__ import annotations

import argparse
import sys
import time

from dominoes.bots.base import make_rng
from dominoes.rules import PROFILES
from research.lab import LabQuelonia
from research.quelonia_regret import apply_chain_arguments, positions, positive, share


def bot_for(config: tuple[int, float, int, int]) -> LabQuelonia:
    """Quelonia with ``config``, ``(chains, burn-in per unseen tile, simulations, sampled
    deals at most)``, for every set, and no clock."""
    chains, burn_in, rollouts, deals = config
    apply_chain_arguments(chains, burn_in)
    return LabQuelonia(time_budget=600.0, rollouts=rollouts, max_worlds=deals, burn_in=burn_in)


def config_of(text: str) -> tuple[int, float, int, int]:
    """An argparse type: ``chains,burn-in per tile,simulations,deals``, e.g.
    ``32,2,2000,400`` (the burn-in may be a fraction; the others whole and above 0)."""
    parts = text.split(",")
    try:
        if len(parts) != 4:
            raise ValueError
        chains, rollouts, deals = int(parts[0]), int(parts[2]), int(parts[3])
        burn_in = float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give chains,burn-in per tile,simulations,deals, e.g. 32,2,2000,400"
        ) from None
    if min(chains, rollouts, deals) < 1 or burn_in < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: chains, simulations and deals must be 1 or more, the burn-in 0 or more"
        )
    return chains, burn_in, rollouts, deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="classic")
    parser.add_argument("--positions", type=positive(int), default=150)
    parser.add_argument("--keep", type=share, default=0.3, help="share of choices kept")
    parser.add_argument("--seed", default="AGR", help="the arena's deal sequences")
    parser.add_argument(
        "--oracle",
        type=config_of,
        default=(100, 8.0, 7000, 1000),
        help="chains,burn-in per tile,simulations,deals of the oracle (100,8,7000,1000)",
    )
    parser.add_argument(
        "--variant",
        type=config_of,
        action="append",
        required=True,
        help="chains,burn-in per tile,simulations,deals (repeat for more variants)",
    )
    args = parser.parse_args()
    found = positions(args.profile, 4, 100, args.seed, args.positions, args.keep, team=True)
    agree = dict.fromkeys(args.variant, 0)
    loss = dict.fromkeys(args.variant, 0.0)
    cpu: dict = {config: [] for config in args.variant}
    for number, (_match, view, move_seed) in enumerate(found, 1):
        oracle = bot_for(args.oracle).estimate(view, make_rng("quelonia", view, move_seed))
        values = [item.match_value for item in oracle]
        best = max(range(len(values)), key=values.__getitem__)
        for config in args.variant:
            bot = bot_for(config)
            started = time.thread_time()
            move = bot.choose(view, make_rng("quelonia", view, move_seed))
            seconds = time.thread_time() - started
            chosen = view.legal_moves.index(move)
            agree[config] += chosen == best
            loss[config] += values[best] - values[chosen]
            cpu[config].append(seconds)
        if number % 25 == 0 or number == len(found):
            print(f"{args.profile}, seed {args.seed}, oracle {args.oracle}, {number} positions:")
            for config in args.variant:
                times = sorted(cpu[config])
                print(
                    f"  {config}: oracle's play {agree[config]}/{number} = "
                    f"{agree[config] / number:.1%}, mean loss {loss[config] / number:.4f}, "
                    f"CPU p50 {times[len(times) // 2] * 1000:.0f} ms",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
