"""Load benchmark: many players polling and moving at once against gunicorn + PostgreSQL,
then one request at a time, with the ratios of each request to the framework floor.

    .venv/bin/python -m bench.load --seconds 20
    .venv/bin/python -m bench.load --seconds 20 --baseline 479fb61   # old and new, one run

What it does, all on loopback and bounded in time:

1. (Re)creates the scratch PostgreSQL database ``domino_load`` (``--pg``, ``--db``) and
   builds its world with the server's own code (``bench/load_world.py``: migrate,
   ``--players`` users with API tokens, ``--tables`` running two-seat human tables made
   through ``tables.services``; no bots, no e-mails).
2. Starts ``gunicorn config.wsgi -w 2 -b 127.0.0.1:8765`` in its own process group
   (``DJANGO_DEBUG=false``, ``CONN_MAX_AGE=60``). With ``--redis URL`` the cache and the
   Celery broker are there (keys and queues named ``bench-new``/``bench-old``, deleted
   at the end), so a write's tasks are queued (no worker runs them) instead of run
   inside the request.
3. Runs ``--players`` asyncio players (httpx) for ``--seconds``: each loops over its tables,
   ``GET /api/v1/tables/{id}/``, every other time that again with its ``ETag``
   (``If-None-Match``: a ``304``), and, when it is its turn, ``POST .../moves/`` with a
   random legal move, its ``version`` and an ``Idempotency-Key``; every fifth step
   the floor (``bench.baseline.FLOOR_PATH``: an authenticated DRF view that reads nothing
   and answers ``{}``, in the bench's own URLconf; every step in the one-at-a-time phase). At most
   ``--max-moves-per-second`` moves per player (the ``moves`` throttle is 120/min).
4. Then ``--serial-seconds`` of one request at a time, in ``--rounds`` slices per server:
   service time without queueing, and the ratios move/floor, table/floor, 304/floor.
5. With ``--baseline REV`` the same server is also started from commit ``REV``
   (``bench/baseline.py``: its own worktree, database and port) and the one-at-a-time
   slices alternate between the two, so an improvement is a ratio in one run.
6. Prints requests/s, p50/p95 per kind and status counts, then checks that no move was
   lost or applied twice on the working tree's server (every 200 answer to a POST is one
   non-automatic Move row, versions distinct) and that every snapshot is what its Move
   log replays to. Stops every server (SIGTERM, then SIGKILL) whatever happened.

Exit status: 0 when there were no errors (no 5xx, no transport errors, no unexpected 4xx)
and the verification passed, else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

from bench.baseline import FLOOR_PATH, Server, check_imports, remove, scratch_folder, servers
from bench.load_report import Stats, report, verify
from bench.serving import stop, wait_until_up

ROOT = Path(__file__).resolve().parent.parent


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured duration")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--tables", type=int, default=200, help="two-seat tables")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8765, help="the baseline's is the next")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server")
    parser.add_argument("--db", default="domino_load", help="scratch database (recreated)")
    parser.add_argument("--redis", default="", help="Redis URL: cache and broker (bench-* keys)")
    parser.add_argument("--baseline", default="", help="also measure this older commit")
    parser.add_argument("--conn-max-age", type=int, default=60, help="CONN_MAX_AGE seconds")
    parser.add_argument("--max-moves-per-second", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--serial-seconds", type=float, default=8.0, help="then one request at a time"
    )
    parser.add_argument("--rounds", type=int, default=4, help="one-at-a-time slices per server")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 0 <= args.serial_seconds <= 300:
        parser.error("--seconds must be in (0, 600], --serial-seconds in [0, 300]")
    if args.players < 2 or args.tables < 1 or args.rounds < 1:
        parser.error("need at least 2 players, 1 table and 1 round")
    return args


# --- setup ---------------------------------------------------------------------------------


def server_env(args: argparse.Namespace, server: Server) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SECRET_KEY")}
    env.update(
        DJANGO_SETTINGS_MODULE=server.settings,
        PYTHONPATH=f"{server.root}{os.pathsep}{server.settings_dir}",
        DATABASE_URL=f"{args.pg}/{server.db}",
        CONN_MAX_AGE=str(args.conn_max_age),
        DJANGO_DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="ERROR",
        BOT_DELAY_SECONDS="0",
    )
    if args.redis:
        env["REDIS_URL"] = args.redis
    return env


def recreate_database(args: argparse.Namespace, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def forget_redis_keys(url: str) -> None:
    """Delete the bench's own keys (cache entries, task queues: ``bench-*``) from the
    Redis database ``url``; nothing else there is touched."""
    import redis

    client = redis.Redis.from_url(url)
    for pattern in ("bench-*", "_kombu.binding.bench-*"):
        for key in client.scan_iter(match=pattern, count=1000):
            client.delete(key)


def build_world(args: argparse.Namespace, server: Server) -> None:
    """The server's database and world, made by its own code (``bench/load_world.py``)."""
    recreate_database(args, server.db)
    env = server_env(args, server)
    check_imports(server, env)
    command = [str(server.bin / "python"), str(ROOT / "bench" / "load_world.py")]
    command += [str(args.players), str(args.tables), str(args.seed)]
    done = subprocess.run(
        command, cwd=server.root, env=env, check=True, capture_output=True, text=True
    )
    server.seats = json.loads(done.stdout.strip().splitlines()[-1])


def setup_django(args: argparse.Namespace, server: Server) -> None:
    """Django in this process, on the working tree's database (for the verification)."""
    os.environ.update(server_env(args, server))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    import django

    django.setup()


# --- the server ----------------------------------------------------------------------------


def start_gunicorn(args: argparse.Namespace, server: Server) -> subprocess.Popen:
    command = [str(server.bin / "gunicorn"), "config.wsgi", "-w", str(args.workers)]
    command += ["-b", f"127.0.0.1:{server.port}", "--backlog", "256", "--log-level", "warning"]
    return subprocess.Popen(
        command,
        cwd=server.root,
        env=server_env(args, server),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def stop_gunicorn(process: subprocess.Popen | None) -> None:
    """Stop ``process`` and its workers (``serving.stop``); ``None`` is nothing to stop."""
    if process is not None:
        stop(process)


# --- the players -----------------------------------------------------------------------------


async def timed(stats: Stats, kind: str, request):
    """Await ``request`` (an httpx call) and record its latency and status as ``kind``."""
    started = time.perf_counter()
    reply = await request
    stats.record(kind, started, reply.status_code)
    return reply


async def player(
    client, token: str, tables: list[int], stop_at: float, stats: Stats, args, prefix: str = ""
):
    import httpx

    rng = random.Random(f"{args.seed}:{token}")
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    step = 0
    tables = list(tables)
    rng.shuffle(tables)
    while time.monotonic() < stop_at:
        for table_id in tables:
            if time.monotonic() >= stop_at:
                return
            step += 1
            try:
                await _step(client, headers, token, table_id, step, stats, args, rng, prefix)
            except httpx.HTTPError as error:
                stats.errors.append(f"transport: {type(error).__name__}: {error}")
        await asyncio.sleep(0)


async def _step(client, headers, token, table_id, step, stats, args, rng, prefix):
    """One player's step at one table: the floor now and then, the table (and its 304),
    and a move when it is the player's turn."""
    if step % (1 if prefix else 5) == 0:  # one at a time: the floor at every step
        floor = client.get("/" + FLOOR_PATH, headers=headers)
        await timed(stats, prefix + "GET ping (floor)", floor)
    url = f"/api/v1/tables/{table_id}/"
    reply = await timed(stats, prefix + "GET table", client.get(url, headers=headers))
    if reply.status_code != 200:
        stats.errors.append(f"GET table {table_id}: {reply.status_code}")
        return
    if step % 2 == 0:
        again = {**headers, "If-None-Match": reply.headers["ETag"]}
        unchanged = await timed(stats, prefix + "GET table 304", client.get(url, headers=again))
        if unchanged.status_code not in (200, 304):  # 200: the table moved on meanwhile
            stats.errors.append(f"GET table {table_id} again: {unchanged.status_code}")
    state = reply.json()
    moves = state["game"]["legal_moves"] if state["game"] else []
    if not (state["your_turn"] and moves):
        return
    wait = stats.last_move.get(token, 0.0) + 1.0 / args.max_moves_per_second - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    move = rng.choice(moves)
    body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
    keyed = {**headers, "Idempotency-Key": uuid.uuid4().hex}
    posted = client.post(f"/api/v1/tables/{table_id}/moves/", json=body, headers=keyed)
    reply = await timed(stats, prefix + "POST move", posted)
    stats.last_move[token] = time.monotonic()
    if reply.status_code == 200:
        stats.applied[table_id].append(reply.json()["version"])
    elif reply.status_code != 409:  # 409: the table moved on; poll again
        stats.errors.append(f"POST move {table_id}: {reply.status_code} {reply.text}")


async def serial(args: argparse.Namespace, server: Server, seconds: float, stats: Stats):
    """One request at a time, no queueing: the service time of each kind of request."""
    import httpx

    async with httpx.AsyncClient(base_url=server.base, timeout=httpx.Timeout(30.0)) as client:
        stop_at = time.monotonic() + seconds
        tokens = list(server.seats)
        index = stats.next_player
        while time.monotonic() < stop_at:
            token = tokens[index % len(tokens)]
            index += 1
            # one short pass per player; its moves are limited like everyone else's
            until = min(stop_at, time.monotonic() + 0.5)
            await player(client, token, server.seats[token][:2], until, stats, args, "serial ")
        stats.next_player = index


async def drive(args: argparse.Namespace, server: Server, stats: Stats) -> None:
    import httpx

    limits = httpx.Limits(max_connections=args.players, max_keepalive_connections=args.players)
    timeout = httpx.Timeout(30.0)
    async with httpx.AsyncClient(base_url=server.base, limits=limits, timeout=timeout) as client:
        stop_at = time.monotonic() + args.seconds
        await asyncio.gather(
            *(
                player(client, token, tables, stop_at, stats, args)
                for token, tables in server.seats.items()
            )
        )


def measure(args: argparse.Namespace, found: list[Server]) -> tuple[dict[str, Stats], float]:
    """Start every server, load the working tree's, then the alternating one-at-a-time
    slices; every server is stopped whatever happens."""
    stats = {server.name: Stats() for server in found}
    try:
        for server in found:
            server.process = start_gunicorn(args, server)
        for server in found:
            asyncio.run(wait_until_up(server.base, server.process))
        print(f"driving {args.players} players for {args.seconds:.0f} s ...")
        started = time.perf_counter()
        asyncio.run(drive(args, found[0], stats["new"]))
        elapsed = time.perf_counter() - started
        if args.serial_seconds:
            names = " and ".join(server.name for server in found)
            print(f"then one request at a time for {args.serial_seconds:.0f} s each: {names}")
            for _round in range(args.rounds):
                for server in found:
                    seconds = args.serial_seconds / args.rounds
                    asyncio.run(serial(args, server, seconds, stats[server.name]))
    finally:
        for server in found:
            stop_gunicorn(server.process)
    return stats, elapsed


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    scratch = scratch_folder()
    found: list[Server] = []
    try:
        found = servers(args, scratch)
        if args.redis:
            forget_redis_keys(args.redis)
        for server in found:
            print(f"{server.name}: database {server.db} from {server.root} ...")
            started = time.perf_counter()
            build_world(args, server)
            print(f"  set up in {time.perf_counter() - started:.1f} s; port {server.port}")
        stats, elapsed = measure(args, found)
    finally:
        remove(scratch, found)
        if args.redis:
            forget_redis_keys(args.redis)
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    setup_django(args, found[0])
    report(stats, elapsed)
    new = stats["new"]
    problems = verify(new)
    for problem in problems[:20]:
        print("  ", problem)
    server_errors = sum(
        n
        for one in stats.values()
        for counter in one.statuses.values()
        for code, n in counter.items()
        if code >= 500
    )
    ok = not any(one.errors for one in stats.values()) and not problems and server_errors == 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
