"""How many complete random hands per second: our main API, our fast path, PyPI ``dominoes``.

    python -m bench.engine_speed --seconds 5

For 2, 3 and 4 seats it plays complete random hands, ``--seconds`` per implementation and
table size, through:

- ``main API``: ``dominoes.engine`` as the service uses it: ``new_match`` (the seeded
  SHA-256 deal, R4-R9), then ``legal_moves`` / ``play_turn`` (which runs ``advance``) with
  a uniformly random legal move until the hand ends;
- ``fast path``: ``dominoes.playout.play_random_hands`` (bit masks, ``random.Random``
  deal with the same R5 redeal and R7-R9 lead, random legal plays);
- ``fast path @REV`` (with ``--baseline REV``): the same fast path as it stood at git
  revision ``REV`` (``dominoes/playout.py`` from ``git show``, or after the package split
  the ``dominoes`` tree of ``REV`` under another package name), timed in
  the same interleaved rounds, so a change's speed is measured before/after in one run;
- ``pypi dominoes 6.1.0``: the unrelated PyPI package of the same name, in its own
  virtualenv ``bench/.venv-pypi-dominoes`` (created on first use; never install it into
  the project's venv, where it would shadow our package), driven by
  ``bench/pypi_dominoes_driver.py`` in a subprocess. It only plays 4 seats (partnerships,
  no stock), so the ratios are against its 4-seat rate for every table size.

Time is split into ``--rounds`` interleaved rounds so that load from other processes hits
every implementation alike. Rates are given per wall-clock second and per process-CPU
second; the ratio column uses CPU seconds (steadier on a shared machine), the wall ratio
is printed too.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import json
import os
import platform
import random
import subprocess
import sys
import tarfile
import tempfile
import time
import types
from pathlib import Path

from bench.pypi_venv import PYPI_PYTHON, ensure_pypi_venv
from dominoes.engine import legal_moves, new_match, play_turn
from dominoes.playout import play_random_hands

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

PYPI_DRIVER = BENCH / "pypi_dominoes_driver.py"


class Tally:
    """Hands played and time spent by one implementation at one table size."""

    def __init__(self) -> None:
        self.hands = 0
        self.wall = 0.0
        self.cpu = 0.0

    def add(self, hands: int, wall: float, cpu: float) -> None:
        self.hands += hands
        self.wall += wall
        self.cpu += cpu

    @property
    def per_wall(self) -> float:
        return self.hands / self.wall if self.wall else 0.0

    @property
    def per_cpu(self) -> float:
        return self.hands / self.cpu if self.cpu else 0.0


def timed(play_batch, seconds: float) -> tuple[int, float, float]:
    """Call ``play_batch()`` (which returns how many hands it played) for ``seconds``."""
    hands = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = wall0 + seconds
    while time.perf_counter() < deadline:
        hands += play_batch()
    return hands, time.perf_counter() - wall0, time.process_time() - cpu0


def main_api_batch(seats: int, rng: random.Random, counter: list[int]):
    """A batch function playing 20 hands through the engine's public API."""

    def play() -> int:
        for _ in range(20):
            counter[0] += 1
            match = new_match(seats, 100, seed=b"bench-%d-%d" % (seats, counter[0]))
            while not match.hand.is_over:
                moves = legal_moves(match)
                match = play_turn(match, moves[int(rng.random() * len(moves))])
        return 20

    return play


def fast_batch(seats: int, counter: list[int]):
    """A batch function playing 500 hands through ``dominoes.playout``."""

    def play() -> int:
        counter[0] += 1
        play_random_hands(seats, 500, seed=seats * 1_000_003 + counter[0])
        return 500

    return play


def load_baseline(revision: str) -> types.ModuleType:
    """The fast path as it stood at git ``revision``, loaded beside the current one.

    Up to the package split it is the single module ``dominoes/playout.py``; after it, the
    whole ``dominoes`` tree of ``revision`` is extracted to a temporary folder as package
    ``dominoes_baseline`` (its imports renamed), and its ``playout`` is returned."""
    single = subprocess.run(
        ["git", "cat-file", "-e", f"{revision}:dominoes/playout.py"],
        cwd=str(ROOT),
        check=False,
        stderr=subprocess.DEVNULL,
    )
    if single.returncode != 0:
        return _load_baseline_package(revision)
    source = subprocess.run(
        ["git", "show", f"{revision}:dominoes/playout.py"],
        check=True,
        capture_output=True,
        text=True,
        cwd=str(ROOT),
    ).stdout
    module = types.ModuleType("playout_baseline")
    module.__file__ = f"{revision}:dominoes/playout.py"
    sys.modules[module.__name__] = module  # dataclasses and caches look modules up
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def _load_baseline_package(revision: str) -> types.ModuleType:
    """``dominoes.playout`` of ``revision`` as ``dominoes_baseline.playout`` (see above)."""
    folder = Path(tempfile.mkdtemp(prefix="playout-baseline-"))
    archive = subprocess.run(
        ["git", "archive", revision, "dominoes"], check=True, capture_output=True, cwd=str(ROOT)
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "dominoes").rename(folder / "dominoes_baseline")
    for path in (folder / "dominoes_baseline").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = text.replace("from dominoes.", "from dominoes_baseline.")
        text = text.replace("import dominoes.", "import dominoes_baseline.")
        path.write_text(text.replace("from dominoes import", "from dominoes_baseline import"))
    package = folder / "dominoes_baseline"
    spec = importlib.util.spec_from_file_location(
        "dominoes_baseline", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    sys.modules["dominoes_baseline"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sys.modules["dominoes_baseline"])
    return importlib.import_module("dominoes_baseline.playout")


def baseline_batch(module: types.ModuleType, seats: int, counter: list[int]):
    """A batch function playing 500 hands through the baseline revision's fast path (the
    same seeds as ``fast_batch``)."""

    def play() -> int:
        counter[0] += 1
        module.play_random_hands(seats, 500, seed=seats * 1_000_003 + counter[0])
        return 500

    return play


def pypi_round(seconds: float, seed: int) -> tuple[int, float, float]:
    """One timed run of the PyPI package in its own venv (a subprocess)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    out = subprocess.run(
        [str(PYPI_PYTHON), str(PYPI_DRIVER), str(seconds), str(seed)],
        check=True,
        capture_output=True,
        text=True,
        cwd=str(BENCH),
        env=env,
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return data["hands"], data["seconds"], data["cpu_seconds"]


def parse_args() -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="per implementation and table size"
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--no-pypi", action="store_true", help="skip the PyPI package")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also time the fast path as of git revision REV (before/after in one run)",
    )
    parser.add_argument("--no-main", action="store_true", help="skip the main API rows")
    return parser.parse_args()


def run_rounds(
    args: argparse.Namespace, baseline: types.ModuleType | None, baseline_name: str
) -> dict[tuple[str, int], Tally]:
    """Time every implementation and table size in ``args.rounds`` interleaved rounds of
    ``args.seconds / args.rounds`` seconds each, after a warm-up outside the timings;
    returns the tallies by ``(implementation name, seats)``."""
    slice_ = args.seconds / args.rounds
    tallies: dict[tuple[str, int], Tally] = {}
    rng = random.Random(2024)
    counters = {key: [0] for key in ("main", "fast", "baseline")}
    # Warm-up (imports, caches) outside the timings.
    play_random_hands(4, 200, seed=0)
    if baseline is not None:
        baseline.play_random_hands(4, 200, seed=0)
    main_api_batch(4, rng, [10**9])()
    for round_ in range(args.rounds):
        for seats in args.seats:
            batches = []
            if not args.no_main:
                batches.append(("main API", main_api_batch(seats, rng, counters["main"])))
            # Alternate which fast path goes first, so drifting load hits both alike.
            fast = [("fast path", fast_batch(seats, counters["fast"]))]
            if baseline is not None:
                fast.append((baseline_name, baseline_batch(baseline, seats, counters["baseline"])))
                if round_ % 2:
                    fast.reverse()
            for name, batch in batches + fast:
                tallies.setdefault((name, seats), Tally()).add(*timed(batch, slice_))
        if not args.no_pypi:
            tallies.setdefault(("pypi dominoes 6.1.0", 4), Tally()).add(
                *pypi_round(slice_, round_ + 1)
            )
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    return tallies


def print_table(
    args: argparse.Namespace, tallies: dict[tuple[str, int], Tally], baseline_name: str | None
) -> list[dict]:
    """Print one row per implementation and table size (hands, hands/s, hands/CPU-s and the
    ratios to the PyPI package); returns the rows as dicts for ``--json``."""
    pypi = tallies.get(("pypi dominoes 6.1.0", 4))
    rows = []
    print()
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"{args.seconds:g} s per row in {args.rounds} interleaved rounds"
    )
    header = (
        f"{'implementation':<22}{'seats':>6}{'hands':>9}{'hands/s':>10}"
        f"{'hands/CPU-s':>13}{'x PyPI (CPU)':>14}{'x PyPI (wall)':>15}"
    )
    print(header)
    print("-" * len(header))
    order = [("pypi dominoes 6.1.0", 4)] if pypi else []
    names = ([] if args.no_main else ["main API"]) + ["fast path"]
    names += [baseline_name] if baseline_name is not None else []
    order += [(name, seats) for name in names for seats in args.seats]
    for name, seats in order:
        tally = tallies[(name, seats)]
        ratio_cpu = tally.per_cpu / pypi.per_cpu if pypi else float("nan")
        ratio_wall = tally.per_wall / pypi.per_wall if pypi else float("nan")
        print(
            f"{name:<22}{seats:>6}{tally.hands:>9}{tally.per_wall:>10.0f}"
            f"{tally.per_cpu:>13.0f}{ratio_cpu:>13.2f}x{ratio_wall:>14.2f}x"
        )
        rows.append(
            {
                "implementation": name,
                "seats": seats,
                "hands": tally.hands,
                "wall_seconds": round(tally.wall, 3),
                "cpu_seconds": round(tally.cpu, 3),
                "hands_per_s": round(tally.per_wall, 1),
                "hands_per_cpu_s": round(tally.per_cpu, 1),
                "ratio_to_pypi_cpu": round(ratio_cpu, 3) if pypi else None,
                "ratio_to_pypi_wall": round(ratio_wall, 3) if pypi else None,
            }
        )
    return rows


def main() -> None:
    args = parse_args()
    if not args.no_pypi:
        ensure_pypi_venv()
    baseline = load_baseline(args.baseline) if args.baseline else None
    baseline_name = f"fast path @{args.baseline}"
    tallies = run_rounds(args, baseline, baseline_name)
    rows = print_table(args, tallies, baseline_name if baseline is not None else None)
    if baseline is not None:
        print(f"\nfast path now / fast path @{args.baseline} (hands per CPU second):")
        for seats in args.seats:
            now, before = tallies[("fast path", seats)], tallies[(baseline_name, seats)]
            ratio = now.per_cpu / before.per_cpu if before.per_cpu else float("nan")
            print(f"  {seats} seats: {ratio:.3f}x")
    if ("pypi dominoes 6.1.0", 4) in tallies:
        print(
            "\nPyPI dominoes 6.1.0 plays only 4 seats (partnerships, no stock); the 2- and "
            "3-seat ratios compare with its 4-seat rate."
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
