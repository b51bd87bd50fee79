"""How often Abuela Quelonia's choice is the one she would make with far more thinking.

    .venv/bin/python bench/quelonia_agreement.py --positions 150 --seed AGR \\
        --variant 4,4,2000,400 --variant 32,2,2000,400

Positions are Quelonia's own choices in matches of team Quelonia against team Nino
(``quelonia_regret.positions`` with ``team``; four seats, ``--profile``). In each, an
*oracle* (Quelonia from the same view with ``--oracle`` chains, burn-in per tile and
sampled deals, every legal play in each deal: far more work than a move may cost) values
every legal play; each ``--variant`` (``chains,burn-in per tile,simulations,deals``) then
chooses from the same view and seed. Printed per variant: the share of positions where it
chose the oracle's play, the mean loss (the oracle's value of its best play minus that of
the variant's, in match-win chance) and the CPU per choice. It measures how close a
budget and a sampler come to her own search with more of both (the noise and the
correlation of too few, too alike deals), not whether that search is right: the arena is
for that. No clock; only the seat's view is read (R31).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from quelonia_regret import apply_chain_arguments, positions  # noqa: E402

from dominoes.bots.base import make_rng  # noqa: E402
from dominoes.bots.quelonia import Quelonia  # noqa: E402


def estimate(config: tuple[int, int, int, int], view, move_seed: int):
    """``(match values per legal play, CPU seconds)`` of Quelonia with ``config``:
    ``(chains, burn-in per tile, simulations, sampled deals at most)``."""
    chains, burn_in, rollouts, deals = config
    apply_chain_arguments(chains, burn_in)
    bot = Quelonia(time_budget=600.0, rollouts=rollouts, max_worlds=deals)
    started = time.thread_time()
    found = bot.estimate(view, make_rng("quelonia", view, move_seed))
    return [item.match_value for item in found], time.thread_time() - started


def config_of(text: str) -> tuple[int, int, int, int]:
    chains, burn_in, rollouts, deals = (int(part) for part in text.split(","))
    return chains, burn_in, rollouts, deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--keep", type=float, default=0.3)
    parser.add_argument("--seed", default="AGR")
    parser.add_argument("--oracle", type=config_of, default=(100, 8, 1000 * 7, 1000))
    parser.add_argument("--variant", type=config_of, action="append", required=True)
    args = parser.parse_args()
    found = positions(args.profile, 4, 100, args.seed, args.positions, args.keep, team=True)
    agree = dict.fromkeys(args.variant, 0)
    loss = dict.fromkeys(args.variant, 0.0)
    cpu: dict = {config: [] for config in args.variant}
    for number, (_match, view, move_seed) in enumerate(found, 1):
        values, _ = estimate(args.oracle, view, move_seed)
        best = max(range(len(values)), key=values.__getitem__)
        for config in args.variant:
            mine, seconds = estimate(config, view, move_seed)
            chosen = max(range(len(mine)), key=mine.__getitem__)
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
