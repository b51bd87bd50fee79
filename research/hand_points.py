"""The mean points of a scored hand, by rule profile and table size: Quelonia's match model.

    .venv/bin/python -m research.hand_points --groups 60 --seed HP

Nino plays every seat of arena matches (``dominoes.arena.play_match``, to the profile's
first target) on ``--groups`` deal sequences of ``--seed``; for each profile and table size
the line gives the hands, the scored ones and the mean points of a scored hand.
Single-hand profiles, where any win wins the match, are left out.
``dominoes.bots.match_value.HAND_POINTS`` holds these means: her match model reads a
hand's points as geometric with that mean (R25).
"""

from __future__ import annotations

import argparse
import sys

from dominoes.arena import Tally, play_match, seatings
from dominoes.bots import choose_play
from dominoes.rules import PROFILES


def measure(profile: str, seats: int, groups: int, seed: str) -> Tally:
    """The tally of ``groups`` Nino-only matches of ``profile`` at ``seats`` seats."""
    rules = PROFILES[profile]
    names = {"A": "nino", "B": "nino"}
    total = Tally()

    def choose(side, match, view, move_seed):
        return choose_play("nino", view, seed=move_seed)

    for group in range(groups):
        seating = seatings(seats)[0]
        total.add(play_match(seats, rules.targets[0], names, seating, seed, group, rules, choose))
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=60, help="deal sequences a table")
    parser.add_argument("--seed", default="HP")
    parser.add_argument("--profile", action="append", help="only these (default: every one)")
    args = parser.parse_args()
    for name in args.profile or sorted(PROFILES):
        if PROFILES[name].targets == (1,):
            continue
        for seats in PROFILES[name].seat_counts:
            tally = measure(name, seats, args.groups, args.seed)
            scored = tally.hands_a + tally.hands_b
            mean = (tally.points_a + tally.points_b) / max(scored, 1)
            print(f"{name:17} {seats} seats: {tally.hands} hands, {scored} scored, {mean:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
