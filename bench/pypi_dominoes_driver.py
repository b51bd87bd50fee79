"""Play random hands with the PyPI package ``dominoes==6.1.0`` (a different project that
happens to share our package's name) and print how many complete hands per second it plays.

Run it ONLY with the interpreter of ``bench/.venv-pypi-dominoes`` (``bench/engine_speed.py``
does this as a subprocess). Never run it with the project's venv: there ``import dominoes``
is our own engine.

That package plays only 4-seat partnership hands with no stock: ``Game.new`` shuffles the
28 tiles into four hands of 7 with ``random.shuffle``; ``starting_domino=Domino(6, 6)``
makes the seat holding 6-6 lead it (as our R7). ``make_move`` plays a move and then the
passes of the following seats, and detects the end of the hand (domino or stuck), which is
the same work a complete hand costs in our engine. Moves are chosen uniformly at random
from ``game.valid_moves`` with ``random.choice``.

Usage: ``pypi_dominoes_driver.py SECONDS SEED`` -> prints one JSON object
``{"package", "version", "seats": 4, "hands", "seconds", "cpu_seconds", "hands_per_s",
"hands_per_cpu_s"}`` (wall-clock and process-CPU-time rates).
"""

from __future__ import annotations

import json
import random
import sys
import time
from importlib.metadata import version

import dominoes


def play_hand(rng: random.Random) -> None:
    """Play one complete 4-seat hand with random valid moves."""
    game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    choice = rng.choice
    while game.result is None:
        game.make_move(*choice(game.valid_moves))


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    random.seed(seed)  # Game.new shuffles with the module-level random
    rng = random.Random(seed + 1)
    assert hasattr(dominoes, "Game") and hasattr(dominoes, "SkinnyBoard"), (
        "this is not the PyPI dominoes package; run with bench/.venv-pypi-dominoes"
    )
    for _ in range(200):  # warm-up
        play_hand(rng)
    hands = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            play_hand(rng)
        hands += 100
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu_start
    print(
        json.dumps(
            {
                "package": "dominoes",
                "version": version("dominoes"),
                "seats": 4,
                "hands": hands,
                "seconds": round(elapsed, 3),
                "cpu_seconds": round(cpu, 3),
                "hands_per_s": hands / elapsed,
                "hands_per_cpu_s": hands / cpu,
            }
        )
    )


if __name__ == "__main__":
    main()
