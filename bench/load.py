"""Load benchmark: many players polling and moving at once against gunicorn + PostgreSQL.

    .venv/bin/python bench/load.py --seconds 20

What it does, all on loopback and bounded in time:

1. (Re)creates the scratch PostgreSQL database ``domino_load`` (``--pg``, ``--db``) and
   migrates it with ``config.settings.local`` (``DJANGO_DEBUG=false``).
2. Creates ``--players`` users (50) with API tokens and ``--tables`` two-seat human tables
   (200), through ``tables.services`` (``table_create`` + ``seat_join``), so every match is
   running; each player sits at ``2 * tables / players`` tables. No bots, no e-mails.
3. Starts ``gunicorn config.wsgi -w 2 -b 127.0.0.1:8765`` in its own process group.
4. Runs ``--players`` asyncio players (httpx) for ``--seconds``: each loops over its tables,
   ``GET /api/v1/tables/{id}/`` and, when it is its turn, ``POST .../moves/`` with a random
   legal move, its ``version`` and an ``Idempotency-Key``; every fifth step it also calls
   ``GET /api/v1/me/`` (a trivial DRF view: the framework floor). A player never sends more
   than ``--max-moves-per-second`` (2: the ``moves`` throttle is 120/min per user).
5. Prints requests/s, p50/p95 latency per kind, status counts and errors, then checks that
   no move was lost or applied twice: for every table, the 200 answers to POST moves are
   exactly its non-automatic Move rows (and their versions distinct), and every table's
   snapshot is what its Move log replays to.
6. Stops gunicorn (SIGTERM, then SIGKILL) whatever happened.

Exit status: 0 when there were no errors (no 5xx, no transport errors, no unexpected 4xx)
and the verification passed, else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from load_report import report, verify  # bench/ is on the path: this script's folder

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured duration")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--tables", type=int, default=200, help="two-seat tables")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server")
    parser.add_argument("--db", default="domino_load", help="scratch database (recreated)")
    parser.add_argument("--conn-max-age", type=int, default=60, help="CONN_MAX_AGE seconds")
    parser.add_argument("--max-moves-per-second", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--serial-seconds", type=float, default=8.0, help="then one request at a time"
    )
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 0 <= args.serial_seconds <= 120:
        parser.error("--seconds must be in (0, 600], --serial-seconds in [0, 120]")
    if args.players < 2 or args.tables < 1:
        parser.error("need at least 2 players and 1 table")
    return args


# --- setup ---------------------------------------------------------------------------------


def server_env(args: argparse.Namespace) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SECRET_KEY")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=f"{args.pg}/{args.db}",
        CONN_MAX_AGE=str(args.conn_max_age),
        DJANGO_DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="ERROR",
        BOT_DELAY_SECONDS="0",
    )
    return env


def recreate_database(args: argparse.Namespace) -> None:
    import psycopg

    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{args.db}"')


def setup_django(args: argparse.Namespace) -> None:
    os.environ.update(server_env(args))
    import django

    django.setup()


def create_world(args: argparse.Namespace) -> dict[str, list[int]]:
    """Users, tokens and running two-seat tables; returns {token: [table ids]}."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from tables import services

    call_command("migrate", verbosity=0, interactive=False)
    users_model = get_user_model()
    users = []
    for index in range(args.players):
        user = users_model(
            username=f"load{index:03d}",
            email=f"load{index:03d}@example.invalid",
            email_notifications=False,
        )
        user.set_unusable_password()
        user.save()
        users.append(user)
    tokens = {user.pk: Token.objects.create(user=user).key for user in users}
    seats: dict[str, list[int]] = defaultdict(list)
    rng = random.Random(args.seed)
    for index in range(args.tables):
        first = users[index % len(users)]
        second = users[(index + 1 + rng.randrange(len(users) - 1)) % len(users)]
        if second.pk == first.pk:
            second = users[(index + 1) % len(users)]
        table = services.table_create(creator=first, seats=2, target=100, others=["friend"])
        token = table.seat_set.get(index=1).invite_token
        services.seat_join(token=token, user=second)
        seats[tokens[first.pk]].append(table.pk)
        seats[tokens[second.pk]].append(table.pk)
    return dict(seats)


# --- the server ----------------------------------------------------------------------------


def start_gunicorn(args: argparse.Namespace) -> subprocess.Popen:
    command = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "config.wsgi",
        "-w",
        str(args.workers),
        "-b",
        f"127.0.0.1:{args.port}",
        "--backlog",
        "256",
        "--log-level",
        "warning",
    ]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=server_env(args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def stop_gunicorn(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)


async def wait_until_up(base: str, process: subprocess.Popen, timeout: float = 30) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError("gunicorn exited: " + process.stderr.read().decode()[-2000:])
            try:
                if (await client.get("/api/v1/me/")).status_code == 401:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


# --- the players -----------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    errors: list[str] = field(default_factory=list)
    applied: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))

    def record(self, kind: str, started: float, status: int) -> None:
        self.latencies[kind].append(time.perf_counter() - started)
        self.statuses[kind][status] += 1


async def player(
    client, token: str, tables: list[int], stop_at: float, stats: Stats, args, prefix: str = ""
):
    import httpx

    rng = random.Random(f"{args.seed}:{token}")
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    min_gap = 1.0 / args.max_moves_per_second
    last_move = 0.0
    step = 0
    tables = list(tables)
    rng.shuffle(tables)
    while time.monotonic() < stop_at:
        for table_id in tables:
            if time.monotonic() >= stop_at:
                return
            step += 1
            try:
                if step % 5 == 0:
                    started = time.perf_counter()
                    reply = await client.get("/api/v1/me/", headers=headers)
                    stats.record(prefix + "GET me (floor)", started, reply.status_code)
                started = time.perf_counter()
                reply = await client.get(f"/api/v1/tables/{table_id}/", headers=headers)
                stats.record(prefix + "GET table", started, reply.status_code)
                if reply.status_code != 200:
                    stats.errors.append(f"GET table {table_id}: {reply.status_code}")
                    continue
                state = reply.json()
                moves = state["game"]["legal_moves"] if state["game"] else []
                if not (state["your_turn"] and moves):
                    continue
                wait = last_move + min_gap - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                move = rng.choice(moves)
                body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
                started = time.perf_counter()
                reply = await client.post(
                    f"/api/v1/tables/{table_id}/moves/",
                    json=body,
                    headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                )
                last_move = time.monotonic()
                stats.record(prefix + "POST move", started, reply.status_code)
                if reply.status_code == 200:
                    stats.applied[table_id].append(reply.json()["version"])
                elif reply.status_code != 409:  # 409: the table moved on; poll again
                    stats.errors.append(f"POST move {table_id}: {reply.status_code} {reply.text}")
            except httpx.HTTPError as error:
                stats.errors.append(f"transport: {type(error).__name__}: {error}")
        await asyncio.sleep(0)


async def serial(args: argparse.Namespace, seats: dict[str, list[int]], base: str, stats: Stats):
    """One request at a time, no queueing: the service time of each kind of request."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30.0)) as client:
        stop_at = time.monotonic() + args.serial_seconds
        tokens = list(seats)
        index = 0
        while time.monotonic() < stop_at:
            token = tokens[index % len(tokens)]
            index += 1
            tables = seats[token][:2]
            # one short pass per player; its moves are limited like everyone else's
            await player(
                client,
                token,
                tables,
                min(stop_at, time.monotonic() + 0.5),
                stats,
                args,
                prefix="serial ",
            )


async def drive(args: argparse.Namespace, seats: dict[str, list[int]], base: str) -> Stats:
    import httpx

    stats = Stats()
    limits = httpx.Limits(max_connections=args.players, max_keepalive_connections=args.players)
    timeout = httpx.Timeout(30.0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        stop_at = time.monotonic() + args.seconds
        await asyncio.gather(
            *(
                player(client, token, tables, stop_at, stats, args)
                for token, tables in seats.items()
            )
        )
    return stats


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    base = f"http://127.0.0.1:{args.port}"
    print(f"recreating database {args.db}, {args.players} players, {args.tables} tables ...")
    recreate_database(args)
    setup_django(args)
    started = time.perf_counter()
    seats = create_world(args)
    print(f"set up in {time.perf_counter() - started:.1f} s; starting gunicorn on {base}")
    process = start_gunicorn(args)
    try:
        asyncio.run(wait_until_up(base, process))
        print(f"driving {len(seats)} players for {args.seconds:.0f} s ...")
        started = time.perf_counter()
        stats = asyncio.run(drive(args, seats, base))
        elapsed = time.perf_counter() - started
        if args.serial_seconds:
            print(f"then one request at a time for {args.serial_seconds:.0f} s ...")
            asyncio.run(serial(args, seats, base, stats))
    finally:
        stop_gunicorn(process)
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    report(stats, elapsed)
    problems = verify(stats)
    for problem in problems[:20]:
        print("  ", problem)
    server_errors = sum(
        n for counter in stats.statuses.values() for code, n in counter.items() if code >= 500
    )
    ok = not stats.errors and not problems and server_errors == 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
