"""The load benchmark's report and verification (``bench/load.py``): requests/s and latency
percentiles per kind, the ratios of each request to the framework floor (one request at a
time, per server: the working tree ``new`` and the ``--baseline`` commit ``old``), then
zero lost or duplicated moves and every table replaying from its Move log."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace


@dataclass
class Stats:
    """What the players saw: latencies (s) and statuses per request kind, errors, the
    versions each table's moves were applied at, and where the next serial slice starts."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    errors: list[str] = field(default_factory=list)
    applied: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    last_move: dict[str, float] = field(default_factory=dict)  # per token, monotonic
    next_player: int = 0  # where the next one-at-a-time slice starts

    def record(self, kind: str, started: float, status: int) -> None:
        self.latencies[kind].append(time.perf_counter() - started)
        self.statuses[kind][status] += 1


KINDS = ("GET ping (floor)", "GET table", "GET table 304", "POST move")
#: The ratio to the floor's p50 each kind must stay within, one at a time (the floor reads
#: nothing: ``bench.baseline.URLS``).
GOALS = {"POST move": 3.0, "GET table": 1.3, "GET table 304": 1.1}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def report(stats: dict[str, Stats], elapsed: float) -> None:
    """Print the load phase (the working tree's server) and, per server, the
    one-at-a-time phase with its ratios; then the ratios side by side."""
    new = stats["new"]
    loaded = [k for k in new.latencies if not k.startswith("serial ")]
    total = sum(len(new.latencies[kind]) for kind in loaded)
    print(f"\nunder load (new): {total} requests in {elapsed:.1f} s: {total / elapsed:.1f} req/s")
    _table(new, elapsed, "")
    ratios = {}
    for name, one in stats.items():
        if any(k.startswith("serial ") for k in one.latencies):
            print(f"\n{name}, one at a time (service time, no queueing; req/s not meaningful):")
            _table(one, elapsed, "serial ")
            ratios[name] = _ratios(one)
    if ratios:
        print("\np50 / floor p50, one at a time:")
        print(f"{'kind':<16} {'goal':>6} " + " ".join(f"{name:>8}" for name in ratios))
        for kind, goal in GOALS.items():
            cells = " ".join(f"{ratios[name].get(kind, float('nan')):>7.2f}x" for name in ratios)
            print(f"{kind:<16} {goal:>5.1f}x {cells}")
    for name, one in stats.items():
        print(f"{name} errors: {len(one.errors)}")
        for line in one.errors[:10]:
            print("  ", line[:300])


def _ratios(stats: Stats) -> dict[str, float]:
    floor = stats.latencies.get("serial GET ping (floor)")
    if not floor:
        return {}
    base = percentile(floor, 0.5)
    return {
        kind: percentile(stats.latencies[f"serial {kind}"], 0.5) / base
        for kind in GOALS
        if stats.latencies.get(f"serial {kind}")
    }


def _table(stats: Stats, elapsed: float, prefix: str) -> None:
    print(f"{'kind':<16} {'count':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8}  statuses")
    for name in KINDS:
        kind = prefix + name
        values = stats.latencies.get(kind, [])
        if not values:
            print(f"{name:<16} {0:>7}")
            continue
        statuses = " ".join(f"{code}:{n}" for code, n in sorted(stats.statuses[kind].items()))
        print(
            f"{name:<16} {len(values):>7} {len(values) / elapsed:>8.1f} "
            f"{percentile(values, 0.50) * 1000:>8.1f} {percentile(values, 0.95) * 1000:>8.1f}"
            f"  {statuses}"
        )


def verify(stats: Stats) -> list[str]:
    """Zero lost or duplicated moves, and every table's snapshot is what its log replays
    to (the snapshot keeps the last ``SNAPSHOT_HANDS`` hands, the log all of them)."""
    from dominoes import match_to_dict
    from tables.models import Move, Table
    from tables.selectors import match_from_log
    from tables.services.transitions import SNAPSHOT_HANDS

    problems: list[str] = []
    chosen = Counter(
        Move.objects.filter(automatic=False).values_list("table_id", flat=True).iterator()
    )
    for table_id in set(chosen) | set(stats.applied):
        versions = stats.applied.get(table_id, [])
        if len(versions) != len(set(versions)):
            problems.append(f"table {table_id}: two 200 answers with one version")
        if chosen[table_id] != len(versions):
            problems.append(
                f"table {table_id}: {len(versions)} moves answered 200, "
                f"{chosen[table_id]} chosen Move rows"
            )
    tables = Table.objects.exclude(state=None)
    for table in tables:
        replayed = match_from_log(table)
        rebuilt = match_to_dict(replace(replayed, hands=replayed.hands[-SNAPSHOT_HANDS:]))
        stored = table.state
        if stored.get("outcome") is None and rebuilt != stored:
            problems.append(f"table {table.pk}: the snapshot differs from its replayed log")
        elif rebuilt["hands"] != stored["hands"]:
            problems.append(f"table {table.pk}: the hands differ from its replayed log")
    moved = sum(len(v) for v in stats.applied.values())
    print(
        f"verified {tables.count()} tables: {moved} moves answered 200, "
        f"{sum(chosen.values())} chosen Move rows, "
        f"{Move.objects.filter(automatic=True).count()} automatic; "
        f"{len(problems)} problems"
    )
    return problems
