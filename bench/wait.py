"""Long-poll bench: many clients waiting on ``?since_version=N&wait=S`` under uvicorn.

    .venv/bin/python -m bench.wait --clients 1000 --tables 500
    .venv/bin/python -m bench.wait --clients 1000 --tables 1     # all on one table

What it does, on loopback, bounded in time:

1. (Re)creates the scratch PostgreSQL database ``domino_wait`` (``--pg``, ``--db``),
   migrates it, creates ``--players`` users with tokens and ``--tables`` running two-seat
   human tables (``tables.services``).
2. Starts ``uvicorn config.asgi:application --workers 2`` (``--workers``) with
   ``REDIS_URL`` (``--redis``: a scratch Redis database; no Celery worker runs, the
   queued notices are dropped at the end), its own ``TABLE_VERSIONS_CHANNEL``, and
   ``TABLE_WAIT_MAX_SECONDS=600`` so that one wait outlasts the whole measurement.
3. Reads the server's resident memory (all its processes), threads and CPU seconds with
   no client; picks each table's next move (whose turn, which legal tile).
4. Opens ``--clients`` waits (``wait=300``), spread round-robin over the tables and their
   two seats' tokens, and waits until the server is quiet (every first look done).
5. Idle: measures the server's CPU over ``--idle-seconds`` (10) with every client
   waiting, its memory and threads, the database connections open
   (``pg_stat_activity``) and the Redis subscriptions (``PUBSUB NUMSUB``).
6. Moves: one move on every table, ``--movers`` (4) at a time, through the API; each
   waiting client's latency is from its table's move request being sent to the client's
   answer arriving (so it includes the move's own service time, printed too).
7. Prints all of it, stops uvicorn, and exits 1 if any client got something other than
   a 200 with a newer version.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bench.serving import (
    ROOT,
    create_tables,
    percentile,
    recreate_database,
    server_env,
    setup_django,
    start,
    stop,
    usage,
    wait_until_up,
)

WAIT_SECONDS = 300


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--movers", type=int, default=4, help="moves sent at a time")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=18766)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server")
    parser.add_argument("--db", default="domino_wait", help="scratch database (recreated)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6", help="scratch Redis DB")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= args.clients or args.players < 2:
        parser.error("need 1 <= --tables <= --clients and at least 2 players")
    return args


@dataclass
class Run:
    seats: dict[int, list[str]]
    versions: dict[int, int] = field(default_factory=dict)
    moves: dict[int, tuple[str, dict]] = field(default_factory=dict)
    sent: dict[int, float] = field(default_factory=dict)
    answered: dict[int, float] = field(default_factory=dict)
    move_seconds: list[float] = field(default_factory=list)
    # (table id, status, version answered, when it arrived)
    answers: list[tuple[int, int, int, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    t0: float = field(default_factory=time.perf_counter)


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}", "Accept": "application/json"}


def phase(run: Run, what: str) -> None:
    print(f"  +{time.perf_counter() - run.t0:5.1f} s  {what}", flush=True)


async def pick_moves(client, run: Run, at_once: int = 8) -> None:
    """Each table's version and next move: (the mover's token, the move's body)."""
    rng = random.Random(7)
    gate = asyncio.Semaphore(at_once)

    async def pick(table_id: int, tokens: list[str]) -> None:
        async with gate:
            for token in tokens:
                reply = await client.get(f"/api/v1/tables/{table_id}/", headers=headers(token))
                state = reply.json()
                if state["your_turn"]:
                    move = rng.choice(state["game"]["legal_moves"])
                    body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
                    run.moves[table_id] = (token, body)
                    run.versions[table_id] = state["version"]
                    return

    await asyncio.gather(*(pick(table_id, tokens) for table_id, tokens in run.seats.items()))


async def waiter(client, run: Run, table_id: int, token: str) -> None:
    since = run.versions[table_id]
    path = f"/api/v1/tables/{table_id}/?since_version={since}&wait={WAIT_SECONDS}"
    try:
        reply = await client.get(path, headers=headers(token))
    except httpx.HTTPError as error:
        run.errors.append(f"{type(error).__name__} at +{time.perf_counter() - run.t0:.1f} s")
        run.answers.append((table_id, 0, since, time.perf_counter()))
        return
    version = reply.json()["version"] if reply.status_code == 200 else since
    run.answers.append((table_id, reply.status_code, version, time.perf_counter()))


async def mover(client, run: Run, queue: asyncio.Queue) -> None:
    while not queue.empty():
        table_id = queue.get_nowait()
        token, body = run.moves[table_id]
        run.sent[table_id] = started = time.perf_counter()
        try:
            reply = await client.post(
                f"/api/v1/tables/{table_id}/moves/", json=body, headers=headers(token)
            )
        except httpx.HTTPError as error:
            run.errors.append(f"move at table {table_id}: {type(error).__name__}")
            continue
        run.answered[table_id] = time.perf_counter()
        run.move_seconds.append(run.answered[table_id] - started)
        if reply.status_code != 200:
            print(f"  move at table {table_id}: {reply.status_code} {reply.text[:200]}")


async def until_quiet(pid: int, most: float = 120.0) -> float:
    """Wait until the server used under 5% of a CPU for a second; returns seconds."""
    started = time.monotonic()
    before = usage(pid)["cpu_seconds"]
    while time.monotonic() - started < most:
        await asyncio.sleep(1.0)
        now = usage(pid)["cpu_seconds"]
        if now - before < 0.05:
            break
        before = now
    return time.monotonic() - started


def outside_counts(args: argparse.Namespace) -> tuple[int, int]:
    """(database connections open on the bench database, subscriptions to the channel)."""
    import psycopg
    import redis
    from django.conf import settings

    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
        sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
        connections = conn.execute(sql, (args.db,)).fetchone()[0]
    subscribed = redis.Redis.from_url(args.redis).pubsub_numsub(settings.TABLE_VERSIONS_CHANNEL)
    return connections, subscribed[0][1]


async def measure(args: argparse.Namespace, run: Run, pid: int, base: str) -> dict:
    limits = httpx.Limits(max_connections=args.clients + args.movers + 8)
    timeout = httpx.Timeout(WAIT_SECONDS + 60.0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        await pick_moves(client, run)
        phase(run, "moves picked")
        empty = usage(pid)
        tables = list(run.seats)
        waits = []
        for index in range(args.clients):
            table_id = tables[index % len(tables)]
            token = run.seats[table_id][(index // len(tables)) % 2]
            waits.append(asyncio.create_task(waiter(client, run, table_id, token)))
        phase(run, f"{args.clients} waits sent")
        settled = await until_quiet(pid)
        phase(run, "server quiet: every first look done")
        idle_start = usage(pid)
        await asyncio.sleep(args.idle_seconds)
        idle_end = usage(pid)
        connections, subscriptions = outside_counts(args)
        queue: asyncio.Queue = asyncio.Queue()
        for table_id in tables:
            queue.put_nowait(table_id)
        phase(run, "idle measured; moving")
        await asyncio.gather(*(mover(client, run, queue) for _ in range(args.movers)))
        phase(run, "every move answered")
        await asyncio.gather(*waits)
        phase(run, "every wait answered")
    return {
        "empty": empty,
        "idle": idle_end,
        "settled": settled,
        "idle_cpu": (idle_end["cpu_seconds"] - idle_start["cpu_seconds"]) / args.idle_seconds,
        "connections": connections,
        "subscriptions": subscriptions,
    }


def report(args: argparse.Namespace, run: Run, numbers: dict) -> bool:
    empty, idle = numbers["empty"], numbers["idle"]
    print(f"\n{args.clients} waiting clients on {args.tables} tables, {args.workers} workers")
    print(f"  all waiting after {numbers['settled']:.1f} s (every first look done)")
    each = (idle["rss_mib"] - empty["rss_mib"]) * 1024 / args.clients
    print(
        f"  server memory: {empty['rss_mib']:.0f} MiB with no client, "
        f"{idle['rss_mib']:.0f} MiB with every client waiting (+{each:.0f} KiB each)"
    )
    print(
        f"  threads: {empty['threads']} with no client, {idle['threads']} waiting "
        f"({idle['processes']} processes)"
    )
    print(
        f"  CPU while waiting: {numbers['idle_cpu'] * 100:.1f} % of one core over "
        f"{args.idle_seconds:.0f} s"
    )
    print(
        f"  database connections while waiting: {numbers['connections']}; Redis "
        f"subscriptions to the channel: {numbers['subscriptions']}"
    )
    latencies = [at - run.sent[table] for table, status, _v, at in run.answers if status == 200]
    bad = [a for a in run.answers if a[1] != 200 or a[2] <= run.versions[a[0]]]
    moves = sorted(run.move_seconds)
    print(
        f"  {len(moves)} moves, {args.movers} at a time: "
        f"p50 {percentile(moves, 0.5) * 1000:.0f} ms, "
        f"p95 {percentile(moves, 0.95) * 1000:.0f} ms each"
    )
    if latencies:
        print(
            f"  move request -> waiting client's answer ({len(latencies)} answers): "
            f"p50 {percentile(latencies, 0.5) * 1000:.0f} ms, p95 "
            f"{percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
        )
    after = [at - run.answered[table] for table, status, _v, at in run.answers if status == 200]
    if after:
        print(
            f"  move's answer -> waiting client's answer: "
            f"p50 {percentile(after, 0.5) * 1000:.0f} ms, "
            f"p95 {percentile(after, 0.95) * 1000:.0f} ms (negative: the client was first)"
        )
    print(f"  load average at the end (1, 5, 15 min): {os.getloadavg()}")
    print(
        f"  answers other than 200 with a newer version: {len(bad)}",
        dict(Counter(a[1] for a in bad)),
    )
    for line in sorted(set(run.errors))[:5]:
        print("   ", line)
    return not bad and len(run.answers) == args.clients


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    base = f"http://127.0.0.1:{args.port}"
    env = server_env(
        f"{args.pg}/{args.db}",
        args.redis,
        TABLE_WAIT_MAX_SECONDS="600",
        TABLE_VERSIONS_CHANNEL="domino:bench-wait",
    )
    print(f"recreating {args.db}: {args.players} players, {args.tables} tables ...")
    recreate_database(args.pg, args.db)
    setup_django(env)
    run = Run(seats=create_tables(args.players, args.tables))
    command = [
        str(ROOT / ".venv/bin/uvicorn"),
        "config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(args.port),
        "--workers",
        str(args.workers),
        "--no-access-log",
        "--log-level",
        "warning",
        "--backlog",
        "4096",
        # A loop that 1,000 wakes keep busy must not be taken for a hung worker.
        "--timeout-worker-healthcheck",
        "60",
        "--timeout-keep-alive",  # the movers' connections sit idle while the bench measures
        "300",
    ]
    process = start(command, env)
    try:
        asyncio.run(wait_until_up(base, process))
        numbers = asyncio.run(measure(args, run, process.pid, base))
    except BaseException:
        stop(process)
        print(process.stderr.read().decode()[-3000:])
        raise
    finally:
        stop(process)
        import redis

        redis.Redis.from_url(args.redis).delete("celery")  # the notices nobody ran
    ok = report(args, run, numbers)
    # What the server logged (a lost subscription wakes every waiter of its process).
    logged = [line for line in process.stderr.read().decode(errors="replace").splitlines() if line]
    print(f"  server log lines: {len(logged)}")
    for line in logged[-8:]:
        print("   ", line[:240])
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
