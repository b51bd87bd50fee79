"""Abuela Quelonia's variants against Nino on the same deals (how her design was chosen).

    .venv/bin/python -m research.quelonia_variants --variant belief --seats 4 \\
        --groups 15:75 --seed L

Plays the arena's matches (``dominoes.arena.play_match`` with its ``choose`` hook: every
deal sequence once per seating, the arena's deal and move seeds, so a variant and another
meet the same deals) with a *fixed* simulation budget (no clock: the machine's load does
not change the play) and prints the variant's matches and hands won, points and CPU time
per choice (a move with more than one legal play).

Variants:

- ``belief``: Quelonia as shipped (sampled deals weighed by the other seats' past plays);
  ``--share`` and ``--sharpness`` set ``belief``'s tempering and odds per point;
- ``plain``: the same without the weighing (every sampled deal counts alike);
- ``cheat``: a diagnostic, never a bot: her search run on the *true* deal (she sees every
  hand), the ceiling of what better inference could give her search.
"""

from __future__ import annotations

import argparse
import sys
import time

from dominoes.arena import Tally, percentile, play_match, seatings, wilson
from dominoes.bots import belief, choose_play, posterior
from dominoes.bots.base import make_rng
from dominoes.rules import PROFILES
from research.lab import LabQuelonia
from research.quelonia_regret import (
    add_chain_arguments,
    add_option_arguments,
    apply_chain_arguments,
)
from research.soft_search import SoftQuelonia


class Cheat(LabQuelonia):
    """Quelonia's search on the true deal (diagnostic only: it reads ``self.match``)."""

    match = None

    def sample(self, view, knowledge, rng):
        hand = self.match.hand
        return [list(tiles) for tiles in hand.holdings], list(hand.stock[hand.drawn :])


def make(
    variant: str, share: float, sharpness: float, search: dict, softness: float | None = None
) -> LabQuelonia:
    """The variant's bot, with no clock (``time_budget`` of 600 s); ``search``: the
    ``Quelonia`` arguments given on the command line (``rollouts``, ``max_worlds``,
    ``pool``, ``extend``, ``margin``, ``settle``); ``softness``: soft playouts with these
    odds per point (``research/soft_search.py``, session 19's experiment), else hers."""
    belief.MIN_EFFECTIVE_SHARE = share
    belief.SHARPNESS = sharpness
    belief.tempered_weights.__defaults__ = (share,)
    if variant == "cheat":
        return Cheat(time_budget=600.0, max_worlds=16, belief=False)
    if softness is not None:
        return SoftQuelonia(softness, time_budget=600.0, belief=variant == "belief", **search)
    return LabQuelonia(time_budget=600.0, belief=variant == "belief", **search)


def play(bot: LabQuelonia, rules, seats: int, target: int, seed: str, group: int, seating):
    """One match (``dominoes.arena.play_match``, its deals and move seeds) with ``bot`` as
    side A and Nino as side B; returns ``(tally, CPU seconds of A's choices)``, a choice
    being a move with more than one legal play."""
    cpu: list[float] = []

    def choose(side, match, view, move_seed):
        if side == "B" or len(view.legal_moves) == 1:
            return choose_play("nino" if side == "B" else "quelonia", view, seed=move_seed)
        bot.match = match
        started = time.thread_time()
        action = bot.choose(view, make_rng("quelonia", view, move_seed))
        cpu.append(time.thread_time() - started)
        return action

    names = {"A": "quelonia", "B": "nino"}
    tally = play_match(seats, target, names, seating, seed, group, rules, choose)
    return tally, cpu


def report(
    args, search: dict, chain: str, groups: str, total: Tally, cpu: list[float], started
) -> None:
    """Print the totals so far: matches and hands with 95% Wilson intervals, CPU per move
    (p50, p95, max) over the deal sequences ``groups`` played; ``chain``: the chain's
    settings as ``apply_chain_arguments`` gives them."""
    won, lost, hands = total.hands_a, total.hands_b, total.hands
    low, high = wilson(won, hands)
    match_low, match_high = wilson(total.matches_a, total.matches)
    points = total.points_a - total.points_b
    print(
        f"{args.variant} (softness {args.softness}, share {args.share}, "
        f"sharpness {args.sharpness}, {search}, "
        f"{chain}, temperature {posterior.TEMPERATURE}, three seats {args.three_seats}) vs nino, "
        f"{args.profile}, {args.seats} seats, groups {groups}, seed {args.seed}:\n"
        f"  matches {total.matches_a}/{total.matches} "
        f"({match_low:.1%}-{match_high:.1%})\n"
        f"  hands {won}/{hands} = {won / hands:.1%} ({low:.1%}-{high:.1%}); "
        f"nino {lost}; points/hand diff {points / hands:+.2f}\n"
        f"  CPU per move p50 {percentile(cpu, 0.5) * 1000:.0f} ms, "
        f"p95 {percentile(cpu, 0.95) * 1000:.0f} ms, max {max(cpu, default=0) * 1000:.0f} ms "
        f"over {len(cpu)} choices; {time.perf_counter() - started:.0f} s",
        flush=True,
    )


#: The ``Quelonia`` arguments the command line sets (``make``'s ``search``).
SEARCH_OPTIONS = (
    "rollouts",
    "max_worlds",
    "pool",
    "extend",
    "margin",
    "settle",
    "chain",
    "rollout",
    "endgame",
    "legible",
)


def arguments() -> argparse.Namespace:
    """The command line: the variant, the table, the deals and ``SEARCH_OPTIONS``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["belief", "plain", "cheat"], default="belief")
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--groups", default="0:20", help="deal sequences FIRST:LAST (exclusive)")
    parser.add_argument("--seed", default="L")
    parser.add_argument("--share", type=float, default=belief.MIN_EFFECTIVE_SHARE)
    parser.add_argument("--sharpness", type=float, default=belief.SHARPNESS)
    defaults = LabQuelonia()
    helps = {
        "rollouts": "simulations a move (default: the table's own, Quelonia.budget)",
        "max_worlds": "sampled deals at most (default: the table's own)",
        "pool": "resampling pool (1: off)",
        "extend": "more batches while close (0: off)",
        "chain": "1: deals drawn by the chain; 0: uniform deals weighed",
    }
    for name, text in helps.items():
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, type=int, default=getattr(defaults, name), help=text)
    parser.add_argument("--margin", type=float, default=defaults.margin)
    add_option_arguments(parser)
    parser.add_argument("--rollout", choices=["greedy", "advice"], default=defaults.rollout)
    parser.add_argument("--temperature", type=float, default=posterior.TEMPERATURE)
    parser.add_argument("--thin", type=int, default=posterior.THIN)
    add_chain_arguments(parser)
    parser.add_argument(
        "--three-seats",
        choices=["three_way", "leader"],
        default="three_way",
        help="the match model at three seats (three_way: hers; leader: research.lab.LeaderModel)",
    )
    parser.add_argument(
        "--softness",
        type=float,
        help="soft playouts with odds e**S a point of the greedy score (research/soft_search.py)",
    )
    parser.add_argument("--progress", action="store_true", help="report after every group")
    return parser.parse_args()


def main() -> int:
    args = arguments()
    posterior.TEMPERATURE = args.temperature
    posterior.THIN = args.thin
    chain = apply_chain_arguments(args.chains, args.burn_in, args.readings)
    first, last = (int(part) for part in args.groups.split(":"))
    search = {name: getattr(args, name) for name in SEARCH_OPTIONS}
    search |= {"burn_in": args.burn_in, "three_seats": args.three_seats}
    bot = make(args.variant, args.share, args.sharpness, search, args.softness)
    started = time.perf_counter()
    total, cpu = Tally(), []
    for group in range(first, last):
        for seating in seatings(args.seats):
            tally, times = play(
                bot, PROFILES[args.profile], args.seats, args.target, args.seed, group, seating
            )
            total.add(tally)
            cpu += times
        if args.progress or group == last - 1:
            report(args, search, chain, f"{first}:{group + 1}", total, cpu, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
