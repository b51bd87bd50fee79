"""How much of her simulation budget Abuela Quelonia's choices can spend at a table.

    .venv/bin/python bench/budget_use.py --profile classic --seats 4 --groups 20

A choice plays every legal move out in the same sampled deals, ``min(max deals,
simulations // moves)`` of them (``Quelonia._simulate``), so where few plays are legal
the cap on deals, not the simulations, limits her. This plays Nino-only arena matches
(``dominoes.arena.play_match``, seed ``--seed``), counts the legal plays of every choice
(a move with more than one legal play) and prints their distribution and the share of
the nominal budget the choices would spend, at the table's own budget
(``Quelonia.budget``) or at ``--rollouts`` / ``--max-worlds``. No bot thinks: it takes
seconds.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dominoes.arena import play_match, seatings  # noqa: E402
from dominoes.bots import choose_play  # noqa: E402
from dominoes.bots.quelonia import MIN_WORLDS, Quelonia  # noqa: E402
from dominoes.rules import PROFILES  # noqa: E402


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
        play_match(seats, 100, names, seatings(seats)[0], seed, group, rules, choose)
    return counts


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
    args = parser.parse_args()
    counts = legal_play_counts(args.profile, args.seats, args.groups, args.seed)
    bot = Quelonia(rollouts=args.rollouts, max_worlds=args.max_worlds)
    rollouts, max_worlds = bot.budget(PROFILES[args.profile], args.seats)
    total = sum(counts.values())
    print(f"{args.profile}, {args.seats} seats, {total} choices; budget {rollouts} / {max_worlds}")
    print("legal plays | share of choices | simulations spent")
    for moves in sorted(counts):
        share = counts[moves] / total
        print(f"{moves:11d} | {share:16.3f} | {spent(moves, rollouts, max_worlds):6d}")
    mean = sum(n * spent(m, rollouts, max_worlds) for m, n in counts.items()) / total
    print(f"mean simulations a choice: {mean:.0f} of {rollouts} ({mean / rollouts:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
