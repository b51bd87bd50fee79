"""How big a table's snapshot (``Table.state``) is at the end of a match: every hand (the
format before issue 19) against the last two (``SNAPSHOT_HANDS``, now), and how long it
takes to parse each (``match_from_dict``, what every read of a table does once).

    .venv/bin/python -m bench.snapshot_size --matches 30 --target 100

Plays ``--matches`` random matches per table size (2, 3, 4 seats; classic; seeded CSPRNG
deals from ``--seed``) with the engine alone (no database), the mover choosing a random
legal play, and prints per size the hands per match and the JSON bytes and parse time of
both snapshots (mean and max of the match ends), as the service stores them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from dataclasses import replace

from dominoes import legal_moves, match_from_dict, match_to_dict, new_match, play_turn
from dominoes.engine import advance, start_hand

#: tables.services.transitions.SNAPSHOT_HANDS (the engine alone is imported here, no Django).
SNAPSHOT_HANDS = 2


def play_match(seats: int, target: int, seed: int) -> object:
    """A random match to ``target`` (each deal's seed derived from ``seed``)."""
    rng = random.Random(seed)

    def deal_seed(number: int) -> bytes:
        return hashlib.sha256(f"{seed}:{number}".encode()).digest()

    match = advance(new_match(seats, target, seed=deal_seed(0)))
    while not match.is_over:
        if match.hand.is_over:
            match = advance(start_hand(match, seed=deal_seed(match.hand.number + 1)))
            continue
        match = play_turn(match, rng.choice(legal_moves(match, match.hand.turn)))
    return match


def measure(snapshot: dict, repeat: int = 20) -> tuple[int, float]:
    """JSON bytes of ``snapshot`` and the seconds one ``match_from_dict`` of it takes."""
    text = json.dumps(snapshot, separators=(",", ":"))
    started = time.perf_counter()
    for _ in range(repeat):
        match_from_dict(json.loads(text))
    return len(text.encode()), (time.perf_counter() - started) / repeat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{args.matches} random classic matches to {args.target} per size, at their end:")
    print(f"{'seats':>5} {'hands':>11} {'every hand B':>17} {'last two B':>15} {'parse ms':>13}")
    for seats in (2, 3, 4):
        rows = []
        for index in range(args.matches):
            match = play_match(seats, args.target, args.seed * 1000 + seats * 100 + index)
            full = measure(match_to_dict(match))
            kept = measure(match_to_dict(replace(match, hands=match.hands[-SNAPSHOT_HANDS:])))
            rows.append((len(match.hands), full, kept))
        hands = [row[0] for row in rows]
        full_bytes = [row[1][0] for row in rows]
        kept_bytes = [row[2][0] for row in rows]
        full_ms = statistics.mean(row[1][1] for row in rows) * 1000
        kept_ms = statistics.mean(row[2][1] for row in rows) * 1000
        print(
            f"{seats:>5} {statistics.mean(hands):>5.1f} ({max(hands):>2}) "
            f"{statistics.mean(full_bytes):>9.0f} ({max(full_bytes):>5}) "
            f"{statistics.mean(kept_bytes):>7.0f} ({max(kept_bytes):>5}) "
            f"{full_ms:>6.2f} {kept_ms:>5.2f}"
        )
    print("(mean, max in brackets; parse: every hand, then the last two)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
