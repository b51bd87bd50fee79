"""How long the analysis of a finished match takes (issue 20): Ninos play whole matches
(seeded), then ``dominoes.analysis.analyse`` judges every seat's plays with Quelonia at a
given budget; prints per match the judged moves, the CPU seconds (one core, this
process) and the wall seconds, and the totals.

    .venv/bin/python -m research.analysis_speed --seats 2 --matches 3 --rollouts 2000
"""

from __future__ import annotations

import argparse
import random
import time

from dominoes import advance, apply, load_record, match_to_record, new_match, start_hand, view_for
from dominoes.analysis import analyse, quelonia_estimator
from dominoes.bots import choose_play


def nino_match(seats: int, target: int, seed: int):
    """A whole match of Ninos from ``seed``, as a parsed record."""
    rng = random.Random(seed)
    match = advance(new_match(seats, target, seed=rng.randbytes(8)))
    while not match.is_over:
        if match.hand.result is not None:
            match = advance(start_hand(match, seed=rng.randbytes(8)))
            continue
        view = view_for(match, match.hand.turn)
        match = advance(apply(match, choose_play("nino", view, seed=rng.randrange(99))))
    return load_record(match_to_record(match))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--target", type=int, default=50)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--rollouts", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    estimator = quelonia_estimator(args.rollouts)
    moves = cpu = wall = 0.0
    for index in range(args.matches):
        record = nino_match(args.seats, args.target, args.seed + index)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        result = analyse(record, range(args.seats), estimator)
        spent_cpu, spent_wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
        judged = len(result["moves"])
        marks = sum(move["mark"] is not None for move in result["moves"])
        print(
            f"match {index}: {len(record.hands)} hands, {judged} judged moves ({marks} marked), "
            f"{spent_cpu:.1f} s CPU, {spent_wall:.1f} s wall, "
            f"{1000 * spent_cpu / max(judged, 1):.0f} ms CPU a move"
        )
        moves, cpu, wall = moves + judged, cpu + spent_cpu, wall + spent_wall
    print(
        f"total: {args.matches} matches ({args.seats} seats to {args.target}), "
        f"{moves:.0f} judged moves, {cpu:.1f} s CPU, {wall:.1f} s wall, "
        f"{1000 * cpu / max(moves, 1):.0f} ms CPU a move, rollouts {args.rollouts}"
    )


if __name__ == "__main__":
    main()
