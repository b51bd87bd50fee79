"""What ``bench/wait.py`` and ``bench/two_machines.py`` share: a scratch database with
running two-seat tables, server processes in their own process groups, and what a
process tree uses (resident memory, CPU seconds, threads) read from ``/proc``."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def server_env(database_url: str, redis_url: str, **more: str) -> dict[str, str]:
    """The environment of a bench server: production-like (no DEBUG, no e-mail);
    ``more`` (names to values) is added last and overrides these."""
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY",)}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CONN_MAX_AGE="0",
        DJANGO_DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="ERROR",
        BOT_DELAY_SECONDS="0",
    )
    env.update(more)  # the caller's settings win (e.g. another EMAIL_URL)
    return env


def recreate_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def create_tables(players: int, tables: int, seed: int = 1) -> dict[int, list[str]]:
    """``players`` users with API tokens and ``tables`` running two-seat human tables
    (``tables.services``); returns {table id: [seat 0's token, seat 1's token]}."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tables import services

    users = []
    for index in range(players):
        user = get_user_model()(username=f"bench{index:04d}", email=f"b{index}@example.invalid")
        user.email_notifications = False
        user.set_unusable_password()
        user.save()
        users.append(user)
    tokens = {user.pk: Token.objects.create(user=user).key for user in users}
    rng = random.Random(seed)
    seats: dict[int, list[str]] = {}
    for index in range(tables):
        first = users[index % players]
        second = users[(index + 1 + rng.randrange(players - 1)) % players]
        table = services.table_create(creator=first, seats=2, target=100, others=["friend"])
        services.seat_join(token=table.seat_set.get(index=1).invite_token, user=second)
        seats[table.pk] = [tokens[first.pk], tokens[second.pk]]
    return seats


def start(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start ``command`` in its own process group (stopped whole by ``stop``)."""
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
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


async def wait_until_up(base: str, process: subprocess.Popen, timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError("server exited: " + process.stderr.read().decode()[-2000:])
            try:
                if (await client.get("/api/v1/me/")).status_code == 401:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError("the server did not answer in time")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc/*/stat's parent ids)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    tree, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, up in parents.items() if up == parent]
        tree += children
        frontier += children
    return tree


def usage(pid: int) -> dict[str, float]:
    """What the tree under ``pid`` uses now: ``rss_mib`` (resident memory, MiB),
    ``cpu_seconds`` (user + system since start), ``threads``, ``processes``."""
    rss_kib = cpu_ticks = threads = processes = 0
    for member in process_tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
            stat = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        rss_kib += int(values["VmRSS"].split()[0])
        threads += int(values["Threads"])
        cpu_ticks += int(stat[11]) + int(stat[12])  # utime, stime
        processes += 1
    return {
        "rss_mib": rss_kib / 1024,
        "cpu_seconds": cpu_ticks / TICKS,
        "threads": threads,
        "processes": processes,
    }


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]
