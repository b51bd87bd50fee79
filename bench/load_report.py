"""The load benchmark's report and verification (``bench/load.py``): requests/s and latency
percentiles per kind, then zero lost or duplicated moves and every table replaying from
its Move log."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from load import Stats


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def report(stats: Stats, elapsed: float) -> None:
    loaded = [k for k in stats.latencies if not k.startswith("serial ")]
    total = sum(len(stats.latencies[kind]) for kind in loaded)
    print(f"\nunder load: {total} requests in {elapsed:.1f} s: {total / elapsed:.1f} requests/s")
    _table(stats, elapsed, "")
    if any(k.startswith("serial ") for k in stats.latencies):
        print("\none at a time (service time, no queueing; req/s column not meaningful):")
        _table(stats, elapsed, "serial ")
    print(f"errors: {len(stats.errors)}")
    for line in stats.errors[:10]:
        print("  ", line[:300])


def _table(stats: Stats, elapsed: float, prefix: str) -> None:
    print(f"{'kind':<16} {'count':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8}  statuses")
    for name in ("GET me (floor)", "GET table", "POST move"):
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
    floor = stats.latencies.get(prefix + "GET me (floor)")
    move = stats.latencies.get(prefix + "POST move")
    if floor and move:
        ratio = percentile(move, 0.5) / percentile(floor, 0.5)
        print(f"POST move p50 / floor p50 = {ratio:.2f}x (goal: within 3x)")


def verify(stats: Stats) -> list[str]:
    """Zero lost or duplicated moves, and every table replays from its log."""
    from dominoes import match_to_dict
    from tables.models import Move, Table
    from tables.selectors import match_from_log

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
        rebuilt, stored = match_to_dict(match_from_log(table)), table.state
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
