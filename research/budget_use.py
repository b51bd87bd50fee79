"""How much of her simulation budget Abuela Quelonia's choices can spend at a table.

    .venv/bin/python -m research.budget_use --profile classic --seats 4 --groups 20

A choice plays every legal move out in the same sampled deals, ``min(max deals,
simulations // moves)`` of them (``Quelonia._simulate``), so where few plays are legal
the cap on deals, not the simulations, limits her. This plays Nino-only arena matches
(``dominoes.arena.play_match``, seed ``--seed``), counts the legal plays of every choice
(a move with more than one legal play) and prints their distribution and the share of
the nominal budget the choices would spend, at the table's own budget
(``Quelonia.budget``) or at ``--rollouts`` / ``--max-worlds``. No bot thinks: it takes
seconds.

    .venv/bin/python -m research.budget_use --seats 4 --time 60 --max-worlds 1000

``--time N`` also times her ``choose`` (thread CPU, no clock guard) at that budget on the
first ``N`` choices of the first match sequences of seed ``PROBE`` (the same positions
for every budget: run it once per budget, nothing else running) and prints p50 / p95 /
max in ms.

    .venv/bin/python -m research.budget_use --profile cuban --seats 4 --digest 60

``--digest N`` prints a sha256 of her choices and one of her estimates (every move's
match value, hand win chance and expected points, ``repr`` of the floats) on the same
first ``N`` choices (no clock guard): a change meant to make her faster, not different,
must leave both unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter

from dominoes.arena import play_match, seatings
from dominoes.bots import choose_play
from dominoes.bots.base import make_rng
from dominoes.bots.quelonia import MIN_WORLDS
from dominoes.rules import PROFILES
from research.lab import LabQuelonia
from research.quelonia_regret import add_burn_in_argument, add_option_arguments


def legal_play_counts(profile: str, seats: int, groups: int, seed: str) -> Counter:
    """How many choices of Nino-only matches (``groups`` deal sequences, first seating)
    had each number of legal plays (2 or more)."""
    rules = PROFILES[profile]
    counts: Counter = Counter()

    def choose(side, match, view, move_seed):
        if len(view.legal_moves) > 1:
            counts[len(view.legal_moves)] += 1
        return choose_play("nino", view, seed=move_seed)

    names = {"A": "nino", "B": "nino"}
    for group in range(groups):
        play_match(seats, _target(rules), names, seatings(seats)[0], seed, group, rules, choose)
    return counts


def _target(rules) -> int:
    """The match target of the benches' matches: 100, or the profile's first target."""
    return 100 if 100 in rules.targets else rules.targets[0]


def probe_views(profile: str, seats: int, count: int) -> list[tuple[object, int]]:
    """The first ``count`` choices (more than one legal play) of seat A in Nino-only
    matches of seed ``PROBE`` (the profile's first target if it does not play to 100):
    ``(view, move seed)`` pairs."""
    rules = PROFILES[profile]
    views: list[tuple[object, int]] = []

    def choose(side, match, view, move_seed):
        if side == "A" and len(view.legal_moves) > 1 and len(views) < count:
            views.append((view, move_seed))
        return choose_play("nino", view, seed=move_seed)

    names = {"A": "nino", "B": "nino"}
    group = 0
    while len(views) < count and group < 100:
        play_match(seats, _target(rules), names, seatings(seats)[0], "PROBE", group, rules, choose)
        group += 1
    return views


def choice_seconds(bot: LabQuelonia, views: list[tuple[object, int]]) -> list[float]:
    """Thread CPU seconds of ``bot.choose`` on every ``(view, move seed)`` of ``views``
    (``probe_views``), sorted."""
    seconds = []
    for view, move_seed in views:
        started = time.thread_time()
        bot.choose(view, make_rng("quelonia", view, move_seed))
        seconds.append(time.thread_time() - started)
    return sorted(seconds)


def choice_digests(bot: LabQuelonia, views: list[tuple[object, int]]) -> tuple[str, str]:
    """``(sha256 of her choices, sha256 of her estimates)`` on ``views`` (``probe_views``),
    each from the rng ``choose`` would get; hex digests."""
    choices, estimates = hashlib.sha256(), hashlib.sha256()
    for view, move_seed in views:
        play = bot.choose(view, make_rng("quelonia", view, move_seed))
        choices.update(f"{play.tile}/{play.end};".encode())
        for guess in bot.estimate(view, make_rng("quelonia", view, move_seed)):
            figures = (guess.match_value, guess.hand_win_chance, guess.expected_points)
            estimates.update(f"{guess.move.tile}/{guess.move.end}:{figures!r};".encode())
    return choices.hexdigest(), estimates.hexdigest()


def spent(moves: int, rollouts: int, max_worlds: int) -> int:
    """Simulations a choice among ``moves`` legal plays spends (``Quelonia._simulate``)."""
    return moves * max(MIN_WORLDS, min(max_worlds, rollouts // moves))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="classic")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--seed", default="MOVES")
    parser.add_argument("--rollouts", type=int, default=None)
    parser.add_argument("--max-worlds", type=int, default=None)
    parser.add_argument("--time", type=int, default=0, help="time her choose on N choices")
    parser.add_argument("--digest", type=int, default=0, help="digest her choices on N choices")
    add_option_arguments(parser)  # for the timed choices
    add_burn_in_argument(parser)
    args = parser.parse_args()
    counts = legal_play_counts(args.profile, args.seats, args.groups, args.seed)
    bot = LabQuelonia(rollouts=args.rollouts, max_worlds=args.max_worlds)
    rollouts, max_worlds = bot.budget(PROFILES[args.profile], args.seats)
    total = sum(counts.values())
    print(f"{args.profile}, {args.seats} seats, {total} choices; budget {rollouts} / {max_worlds}")
    print("legal plays | share of choices | simulations spent")
    for moves in sorted(counts):
        share = counts[moves] / total
        print(f"{moves:11d} | {share:16.3f} | {spent(moves, rollouts, max_worlds):6d}")
    mean = sum(n * spent(m, rollouts, max_worlds) for m, n in counts.items()) / total
    print(f"mean simulations a choice: {mean:.0f} of {rollouts} ({mean / rollouts:.1%})")
    if args.time or args.digest:
        timed = LabQuelonia(
            rollouts=args.rollouts,
            max_worlds=args.max_worlds,
            time_budget=600.0,
            settle=args.settle,
            endgame=args.endgame,
            legible=args.legible,
            burn_in=args.burn_in,
        )
    if args.digest:
        views = probe_views(args.profile, args.seats, args.digest)
        choices, estimates = choice_digests(timed, views)
        print(f"digest over {len(views)} choices: choices {choices}, estimates {estimates}")
    if args.time:
        seconds = choice_seconds(timed, probe_views(args.profile, args.seats, args.time))
        p50, p95 = seconds[len(seconds) // 2], seconds[int(len(seconds) * 0.95)]
        print(
            f"CPU per choice over {len(seconds)} choices: p50 {p50 * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {seconds[-1] * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
