"""Which sharpness best explains each seat's plays in vs_pypi's hands (a reading screen).

How sharply each seat of ``research/vs_pypi.py``'s hands follows the advice Quelonia reads
plays with (a screen for ``posterior.READINGS``).

    .venv/bin/python -m research.pypi_sharpness --deals 40 --seed 21

Plays hands as ``research/vs_pypi.py`` does (her team against PyPI ``dominoes``'
``probabilistic_alphabeta``), then, with the whole deal known once the hand is over, scores
every informative play of every seat by the advice (``belief.play_gaps``) from the tiles
that seat really held, and sums the log of its chance under each sharpness of a grid
(``belief.sharp_log_likelihood``; 0: every legal play alike). Printed per player and per
part of the hand (before and from PyPI's ``--start-move``, where its search starts): the
mean log-chance a play at each sharpness, the best sharpness, and the share of plays that
were the advice's top option. Nothing here is used in play: it says how a reading should
look at seats like these.
"""

from __future__ import annotations

import argparse
import sys

from dominoes.bots.belief import decisions, play_gaps, sharp_log_likelihood
from dominoes.playout import tables_for
from dominoes.rules import PROFILES
from dominoes.tiles import make_tile
from research.vs_pypi import PROFILE, play_hand, seat_view

GRID = (0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)


def hand_plays(result: dict) -> list[tuple[int, int, tuple[float, list[float]]]]:
    """``(seat, move number, play_gaps)`` for every informative play of a finished hand
    (``play_hand``'s result, with its whole ``log`` and final ``hands``)."""
    rules = PROFILES[PROFILE]
    tables = tables_for(rules.max_pip)
    index = tables.index
    final = [sum(1 << index[make_tile(a, b)] for a, b in hand) for hand in result["hands"]]
    hand_number = 0 if result["index"] % 2 == 0 else 1
    found = []
    for seat in range(4):
        viewer = (seat + 1) % 4
        ask = {
            "seat": viewer,
            "hand": result["hands"][viewer],
            "counts": [len(hand) for hand in result["hands"]],
            "leader": result["log"][0][0],
            "log": result["log"],
            "ends": None,
            "valid": [],
        }
        view, _ = seat_view(ask, hand_number)
        played = [n for n, entry in enumerate(view.log) if entry.kind == "play"]
        for number, decision in enumerate(decisions(view, rules)):
            if decision.seat != seat:
                continue
            move = next(n for n in played if index[view.log[n].tile] == decision.tile)
            gaps = play_gaps(tables, rules, 4, decision, number, final[seat] | decision.after, {})
            if gaps is not None:
                found.append((seat, move, gaps))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--samples", type=int, default=20, help="its player's sample_size")
    parser.add_argument("--start-move", type=int, default=8, help="its player's start_move")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    groups: dict[str, list[tuple[float, list[float]]]] = {}
    for deal in range(args.deals):
        for ours in (0, 1):
            result = play_hand((deal, ours, args.seed, args.samples, args.start_move))
            for seat, move, gaps in hand_plays(result):
                player = "quelonia" if seat % 2 == ours else "pypi"
                part = "before" if move < args.start_move else "from"
                groups.setdefault(f"{player} {part} move {args.start_move}", []).append(gaps)
    print(
        f"{args.deals} deals x 2 seatings, seed {args.seed}, PyPI probabilistic_alphabeta"
        f"(sample_size={args.samples}, start_move={args.start_move}); mean log-chance a play"
    )
    print(f"{'plays':>32} {'n':>5} {'top':>6} " + " ".join(f"{s:>7}" for s in GRID) + "   best")
    for name, plays in sorted(groups.items()):
        means = [sum(sharp_log_likelihood(g, s) for g in plays) / len(plays) for s in GRID]
        top = sum(g[0] == 0.0 for g in plays) / len(plays)
        best = GRID[means.index(max(means))]
        row = " ".join(f"{m:7.3f}" for m in means)
        print(f"{name:>32} {len(plays):5d} {top:6.1%} {row}   {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
