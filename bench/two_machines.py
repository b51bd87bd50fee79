"""More than one machine: two web servers, two Celery workers and one beat on one
PostgreSQL and one Redis, and no move, e-mail or forfeit happens twice.

    .venv/bin/python -m bench.two_machines --seconds 30

What it does, on loopback, bounded in time:

1. (Re)creates the scratch database ``domino_two`` (``--pg``, ``--db``), migrates it and
   creates ``--players`` users (verified addresses, e-mails on) and ``--tables`` running
   two-seat human tables. ``--forfeits`` of them get a deadline three days ago (R27) and
   the next ``--reminders`` a deadline an hour ahead with the reminder due (nobody plays
   those).
2. Starts two ``uvicorn config.asgi:application`` (ports ``--port`` and ``--port`` + 1),
   two ``celery -A config worker`` (``-n one@...``, ``-n two@...``) and one ``celery
   beat`` (``DatabaseScheduler``), all with ``REDIS_URL`` (``--redis``, flushed first),
   e-mails written to files (``filemail://``), the "your turn" e-mail sent at once
   (``TURN_EMAIL_DELAY_SECONDS=0``, no interval, ``PRESENCE_SECONDS=0``).
3. For ``--seconds``: each player reads its tables through either server and, on its
   turn, sends its move with an ``Idempotency-Key`` to server A and, at the same moment,
   the same request to server B (a retry that raced the first); every second the bench
   also queues ``sweep_absences``, ``sweep_reminders`` and ``deliver_emails`` twice (both
   workers run them at once) and, apart from that, reads the overdue tables through both
   servers at once.
4. Waits for the queue to drain, stops everything, and counts rows:
   - moves: every table's non-automatic Move rows are exactly the versions its 200
     answers named (A's and B's answers to one key are one move);
   - reminders: every table with its reminder due was reminded once (one ``reminder``
     notice, ``reminded_version`` its version);
   - forfeits: every overdue table ended ``absent`` at exactly its version + 1 (one
     transition) with one ``match_over`` notice per player;
   - e-mails: no two messages alike (to, subject, body), and no more messages than
     notices marked sent.

Exit status 0 when every count holds, else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from datetime import timedelta
from email import message_from_bytes
from pathlib import Path

import httpx

from bench.serving import (
    ROOT,
    create_tables,
    recreate_database,
    server_env,
    setup_django,
    start,
    stop,
    wait_until_up,
)

SWEEPS = ("tables.tasks.sweep_absences", "notices.tasks.sweep_reminders")
DELIVER = "notices.tasks.deliver_emails"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--forfeits", type=int, default=10, help="tables made overdue")
    parser.add_argument("--reminders", type=int, default=5, help="tables with a reminder due")
    parser.add_argument("--port", type=int, default=18771)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server")
    parser.add_argument("--db", default="domino_two", help="scratch database (recreated)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6", help="scratch Redis DB")
    args = parser.parse_args(argv)
    if not 0 <= args.forfeits + args.reminders < args.tables or args.players < 2:
        parser.error("need 0 <= --forfeits + --reminders < --tables and at least 2 players")
    return args


def prepare(args: argparse.Namespace, env: dict[str, str]) -> tuple[dict, dict, list[int]]:
    """The tables ({id: [tokens]}), the overdue ones ({id: version before}) and those
    with a reminder due ([id])."""
    recreate_database(args.pg, args.db)
    setup_django(env)
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tables.models import Table

    seats = create_tables(args.players, args.tables)
    for user in get_user_model().objects.all():
        user.email_notifications = True
        user.save(update_fields=["email_notifications"])
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    ids = list(Table.objects.order_by("pk").values_list("pk", "version"))
    overdue = dict(ids[: args.forfeits])
    now = timezone.now()
    Table.objects.filter(pk__in=overdue).update(deadline=now - timedelta(days=3))
    reminded = [pk for pk, _version in ids[args.forfeits : args.forfeits + args.reminders]]
    Table.objects.filter(pk__in=reminded).update(
        deadline=now + timedelta(hours=1), remind_at=now - timedelta(minutes=1)
    )
    return seats, overdue, reminded


def processes(args: argparse.Namespace, env: dict[str, str]) -> list:
    bin_ = ROOT / ".venv" / "bin"
    web = [
        [str(bin_ / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1", "--port",
         str(args.port + index), "--no-access-log", "--log-level", "warning",
         "--timeout-keep-alive", "30"]  # past the clients' 5 s: no close racing a reuse
        for index in (0, 1)
    ]  # fmt: skip
    workers = [
        [str(bin_ / "celery"), "-A", "config", "worker", "-n", f"{name}@%h", "-c", "2",
         "--without-gossip", "--without-mingle", "--loglevel", "WARNING"]
        for name in ("one", "two")
    ]  # fmt: skip
    beat = [str(bin_ / "celery"), "-A", "config", "beat", "--loglevel", "WARNING",
            "--scheduler", "django_celery_beat.schedulers:DatabaseScheduler",
            "--schedule", str(Path(tempfile.gettempdir()) / "two-machines-beat")]  # fmt: skip
    return [start(command, env) for command in [*web, *workers, beat]]


async def player(client_pair, run: dict, table_id: int, tokens: list[str], stop_at: float):
    rng = random.Random(table_id)
    while time.monotonic() < stop_at:
        token = rng.choice(tokens)
        auth = {"Authorization": f"Token {token}"}
        reply = await rng.choice(client_pair).get(f"/api/v1/tables/{table_id}/", headers=auth)
        state = reply.json()
        if reply.status_code != 200 or state["status"] != "playing":
            return
        if not state["your_turn"]:
            await asyncio.sleep(0.05)
            continue
        move = rng.choice(state["game"]["legal_moves"])
        body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
        key = {**auth, "Idempotency-Key": uuid.uuid4().hex}
        path = f"/api/v1/tables/{table_id}/moves/"
        answers = await asyncio.gather(
            *(client.post(path, json=body, headers=key) for client in client_pair)
        )
        for answer in answers:
            run["statuses"][answer.status_code] += 1
            if answer.status_code == 200:
                run["applied"][table_id].add(answer.json()["version"])


async def sweeper(stop_at: float, run: dict) -> None:
    """Every second, each sweep and the e-mail delivery queued twice (both workers at once)."""
    from celery import current_app

    while time.monotonic() < stop_at:
        for name in (*SWEEPS, DELIVER):
            for _ in range(2):
                current_app.send_task(name)
                run["sweeps"] += 1
        await asyncio.sleep(1.0)


async def overdue_reader(client_pair, overdue: dict[int, int], seats: dict, stop_at: float):
    """Reads the overdue tables through both servers at once (a read may end a turn past
    its deadline too, racing the sweeps)."""
    while time.monotonic() < stop_at:
        reads = []
        for table_id in overdue:
            auth = {"Authorization": f"Token {seats[table_id][0]}"}
            reads += [
                client.get(f"/api/v1/tables/{table_id}/", headers=auth) for client in client_pair
            ]
        await asyncio.gather(*reads)
        await asyncio.sleep(1.0)


async def drive(args: argparse.Namespace, seats: dict, left: set[int], overdue: dict) -> dict:
    """Plays every table but those in ``left`` for ``--seconds``; returns what happened."""
    run = {"statuses": Counter(), "applied": defaultdict(set), "sweeps": 0}
    bases = [f"http://127.0.0.1:{args.port + index}" for index in (0, 1)]
    timeout = httpx.Timeout(60.0)
    async with (
        httpx.AsyncClient(base_url=bases[0], timeout=timeout) as first,
        httpx.AsyncClient(base_url=bases[1], timeout=timeout) as second,
    ):
        pair = (first, second)
        stop_at = time.monotonic() + args.seconds
        playing = [t for t in seats if t not in left]
        await asyncio.gather(
            sweeper(stop_at, run),
            overdue_reader(pair, overdue, seats, stop_at),
            *(player(pair, run, table_id, seats[table_id], stop_at) for table_id in playing),
        )
    return run


def drain(args: argparse.Namespace, most: float = 120.0) -> None:
    import redis

    queue = redis.Redis.from_url(args.redis)
    deadline = time.monotonic() + most
    while queue.llen("celery") and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(5.0)  # the tasks taken last finish


def check_moves(run: dict) -> list[str]:
    from tables.models import Move

    problems = []
    rows = Counter(Move.objects.filter(automatic=False).values_list("table_id", flat=True))
    for table_id, versions in run["applied"].items():
        if rows[table_id] != len(versions):
            problems.append(f"table {table_id}: {rows[table_id]} moves, {len(versions)} applied")
    moved = sum(len(v) for v in run["applied"].values())
    print(f"moves: {moved} applied (200 answers: {run['statuses'][200]}, two per key when "
          f"both servers answered it), {sum(rows.values())} non-automatic Move rows")  # fmt: skip
    return problems + [f"{sum(rows.values())} rows != {moved}"] * (sum(rows.values()) != moved)


def check_reminders(reminded: list[int]) -> list[str]:
    from notices.models import Notification
    from tables.models import Table

    problems = []
    for table in Table.objects.filter(pk__in=reminded):
        if table.reminded_version != table.version:
            problems.append(f"table {table.pk}: not reminded (version {table.version})")
    notices = Counter(
        Notification.objects.filter(table_id__in=reminded, kind="reminder").values_list(
            "table_id", flat=True
        )
    )
    problems += [f"table {t}: {notices[t]} reminder notices" for t in reminded if notices[t] != 1]
    print(f"reminders: {len(reminded)} tables due, {sum(notices.values())} reminder notices")
    return problems


def check_forfeits(overdue: dict[int, int]) -> list[str]:
    from notices.models import Notification
    from tables.models import Table

    problems = []
    for table in Table.objects.filter(pk__in=overdue):
        if table.outcome != Table.Outcome.ABSENT or table.version != overdue[table.pk] + 1:
            problems.append(f"table {table.pk}: {table.outcome} at version {table.version}")
    notices = Counter(
        Notification.objects.filter(table_id__in=overdue, kind="match_over").values_list(
            "table_id", flat=True
        )
    )
    problems += [f"table {t}: {n} match_over notices" for t, n in notices.items() if n > 2]
    print(f"forfeits: {len(overdue)} overdue tables, "
          f"{Table.objects.filter(pk__in=overdue, outcome='absent').count()} ended absent, "
          f"{sum(notices.values())} match_over notices")  # fmt: skip
    return problems


def _plain_text(message) -> str:
    """The text/plain part of an e-mail (the HTML part says the same)."""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
    raise ValueError(f"no text part in the e-mail to {message['To']}")


def check_emails(folder: Path) -> list[str]:
    from notices.models import Notification

    messages = []
    for path in folder.glob("*.log"):
        for text in path.read_bytes().split(b"-" * 79):
            if text.strip():
                message = message_from_bytes(text.strip())
                messages.append((message["To"], message["Subject"], _plain_text(message)))
    sent = Notification.objects.filter(email="sent").count()
    kinds = Counter(Notification.objects.filter(email="sent").values_list("kind", flat=True))
    twice = [key for key, n in Counter(map(str, messages)).items() if n > 1]
    print(f"e-mails: {len(messages)} messages written, {sent} notices marked sent, "
          f"{len(twice)} sent twice; notices sent by kind: {dict(kinds)}")  # fmt: skip
    return [f"{len(twice)} messages sent twice"] * bool(twice) + (
        [f"{len(messages)} messages > {sent} notices sent"] if len(messages) > sent else []
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="two-machines-mail-"))
    env = server_env(
        f"{args.pg}/{args.db}",
        args.redis,
        EMAIL_URL=f"filemail:///{folder}",  # four slashes: an absolute folder
        TURN_EMAIL_DELAY_SECONDS="0",
        TURN_EMAIL_MIN_INTERVAL_SECONDS="0",
        PRESENCE_SECONDS="0",
        TABLE_VERSIONS_CHANNEL="domino:bench-two",
    )
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    print(f"recreating {args.db}: {args.players} players, {args.tables} tables ...")
    seats, overdue, reminded = prepare(args, env)
    running = processes(args, env)
    try:
        for index in (0, 1):
            asyncio.run(wait_until_up(f"http://127.0.0.1:{args.port + index}", running[index]))
        print(f"2 web servers, 2 workers, 1 beat up; driving for {args.seconds:.0f} s ...")
        run = asyncio.run(drive(args, seats, {*overdue, *reminded}, overdue))
        print(f"statuses of the moves sent: {dict(run['statuses'])}; {run['sweeps']} sweeps")
        drain(args)
    finally:
        for process in running:
            stop(process)
    problems = check_moves(run) + check_reminders(reminded) + check_forfeits(overdue)
    problems += check_emails(folder)
    for problem in problems[:20]:
        print("  ", problem)
    print("OK" if not problems else "FAILED")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
