"""Time the sweeps, "my tables" and the admin on a world built by ``bench/world.py``.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/domino_world \\
        .venv/bin/python -m bench.world_bench --json /tmp/world_bench.json

Settings ``config.settings.test`` (tasks inline, e-mail in memory) on that database.
Everything it changes is rolled back: the world stays as built (it adds one staff user
and API tokens for the players it reads as).

1. **Sweeps** (``tables.tasks``, ``notices.tasks``): for each sweep, ``--due`` rows (10
   and 10,000) are made due in a transaction, after putting off what came due by itself
   since the world was built (``set_aside``: passed deadlines, old bot turns); the due
   query is timed (median of 5) and then one sweep run (at most ``SWEEP_BATCH`` tables;
   its on-commit side effects, the notices, do not run: the transaction is rolled back),
   and the due query's plan is printed with the rows PostgreSQL read.
2. **My tables**: ``GET /api/v1/tables/`` (first page, and a page deep in the list) and the
   "Mis mesas" page for the player with the most tables and for one with two: median ms
   of ``--repeat`` requests, and the SQL queries of one; for the API pages also the page
   query alone (``tables.listing.page_query``) under ``EXPLAIN ANALYZE``: its median
   execution time and plan.
3. **Admin**: the changelists of tables, hands, moves and users (and filtered ones) as
   a superuser: median ms of 5 (wall clock and this process's CPU), and one more
   request's queries (count, SQL ms, the slowest), against a ``count(*)`` of the move
   table.
4. **Size**: ``pg_database_size`` and each big relation's size with its indexes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
django.setup()

from django.conf import settings  # noqa: E402
from django.core.signals import request_finished, request_started  # noqa: E402
from django.db import close_old_connections, connection, transaction  # noqa: E402
from django.db.models import Count, F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from accounts.models import User  # noqa: E402
from notices import tasks as notice_tasks  # noqa: E402
from notices.models import Notification  # noqa: E402
from tables import listing, tasks  # noqa: E402
from tables.models import Seat, Table  # noqa: E402


class Rollback(Exception):
    """Raised to undo a measurement's changes."""


def median_ms(action, repeat: int) -> float:
    """The median wall-clock milliseconds of ``repeat`` calls of ``action`` (and, in
    ``LAST_CPU_MS``, the median of this process's CPU milliseconds: the Python share,
    steadier than the wall clock on a shared machine)."""
    times, cpu = [], []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        action()
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    LAST_CPU_MS[0] = round(statistics.median(cpu), 2)
    return round(statistics.median(times), 2)


LAST_CPU_MS = [0.0]


def _make_due(name: str, count: int, now) -> int:
    """Make ``count`` rows due for sweep ``name``; returns how many were.

    Running tables first (the sweep run handles those: they come first in its order);
    when the world has fewer running tables than ``count``, finished ones are turned into
    due playing tables too, one minute later in the sweep's order: the due query counts
    them, the sweep run (at most ``SWEEP_BATCH``) reaches only real ones."""
    if name in ("emails", "pushes"):
        ids = list(Notification.objects.order_by("pk").values_list("pk", flat=True)[:count])
        if name == "pushes":
            return Notification.objects.filter(pk__in=ids).update(push="pending")
        due = {"email": "pending", "email_due_at": now - timedelta(minutes=1)}
        return Notification.objects.filter(pk__in=ids).update(**due)
    idle = timedelta(seconds=settings.IDLE_SECONDS)
    values = {
        "absences": lambda late: {"deadline": now - timedelta(minutes=2) + late},
        "idle": lambda late: {"last_move_at": now - idle - timedelta(minutes=2) + late},
        "stuck_bots": lambda late: {
            "deadline": None,
            "turn_started_at": now - timedelta(hours=1) + late,
        },
        "reminders": lambda late: {
            "deadline": now + timedelta(hours=1) + late,
            "remind_at": now - timedelta(minutes=1) + late,  # the sweep reads remind_at
            "reminded_version": None,
        },
    }[name]
    playing = Table.objects.filter(status=Table.Status.PLAYING, deadline__isnull=False)
    ids = list(playing.order_by("pk").values_list("pk", flat=True)[:count])
    made = Table.objects.filter(pk__in=ids).update(**values(timedelta(0)))
    if made < count:
        finished = Table.objects.filter(status=Table.Status.FINISHED).order_by("pk")
        extra = list(finished.values_list("pk", flat=True)[: count - made])
        turned = {"status": Table.Status.PLAYING, "turn_seat": 0, "turn_started_at": now}
        turned |= {"deadline": now + timedelta(days=1)} | values(timedelta(minutes=1))
        made += Table.objects.filter(pk__in=extra).update(**turned)
    return made


def _set_aside(name: str, now) -> int:
    """Put off what came due by itself since the world was built (deadlines passed, bot
    turns older than ``BOT_STUCK_SECONDS`` with no worker running, turns inside the
    reminder window), so that exactly the rows ``_make_due`` makes are due; returns how
    many there were. Rolled back with the rest."""
    playing = Table.objects.filter(status=Table.Status.PLAYING)
    if name == "absences":
        return playing.filter(deadline__lte=now).update(deadline=now + timedelta(days=1))
    if name == "stuck_bots":
        since = now - timedelta(seconds=settings.BOT_STUCK_SECONDS)
        bots = playing.filter(deadline__isnull=True, turn_seat__isnull=False)
        return bots.filter(turn_started_at__lt=since).update(turn_started_at=now)
    if name == "reminders":
        due = playing.filter(remind_at__lte=now, deadline__gt=now)
        return due.exclude(reminded_version=F("version")).update(reminded_version=F("version"))
    if name == "idle":
        idle = now - timedelta(seconds=settings.IDLE_SECONDS)
        return playing.filter(last_move_at__lt=idle).update(last_move_at=now)
    return 0


SWEEPS = {
    "absences": (tasks.sweep_absences, tasks.due_absences),
    "idle": (tasks.sweep_idle, tasks.due_idle),
    "stuck_bots": (tasks.sweep_stuck_bots, tasks.stuck_bots),
    "reminders": (notice_tasks.sweep_reminders, notice_tasks.due_reminders),
    "emails": (notice_tasks.deliver_emails, notice_tasks.due_email_notices),
    "pushes": (notice_tasks.deliver_pushes, lambda now: notice_tasks.waiting_pushes()),
}


def _plan_rows(queryset) -> str:
    """The due query's plan: node, relation or index, and the rows it produced."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
        raw = cursor.fetchone()[0]
    plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    parts, stack = [], [plan]
    while stack:
        node = stack.pop()
        where = node.get("Index Name") or node.get("Relation Name") or ""
        parts.append(f"{node['Node Type']} {where} rows={node['Actual Rows']}".strip())
        stack.extend(node.get("Plans", ()))
    return "; ".join(parts)


#: Above this many due rows only the query of these sweeps is timed, not a run (one
#: push run handles up to 500; e-mails have their batch, ``notices.tasks.EMAIL_BATCH``).
UNBATCHED = {"pushes": 500}


def sweep_bench(due_counts: list[int], names: list[str]) -> list[dict]:
    rows = []
    for name in names:
        sweep, due_query = SWEEPS[name]
        for count in due_counts:
            if count > UNBATCHED.get(name, count):
                sweep = lambda: None  # noqa: E731  (the query only)
            now = timezone.now()
            try:
                with transaction.atomic():
                    aside = _set_aside(name, now)
                    made = _make_due(name, count, now)
                    query_ms = median_ms(lambda q=due_query, t=now: list(q(t)), 5)
                    plan = _plan_rows(due_query(now))
                    began = time.perf_counter()
                    handled = sweep()
                    run_ms = round((time.perf_counter() - began) * 1000, 1)
                    raise Rollback
            except Rollback:
                pass
            row = {"sweep": name, "due": made, "set_aside": aside, "query_ms": query_ms}
            row["run_ms"] = run_ms
            rows.append(row | {"handled": handled, "plan": plan})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def _players() -> tuple[User, User]:
    """The player with the most tables, and one with two."""
    counts = Seat.objects.filter(user__isnull=False).values("user").annotate(n=Count("id"))
    heavy = counts.order_by("-n").first()["user"]
    light = counts.filter(n=2).order_by("user").first()["user"]
    return User.objects.get(pk=heavy), User.objects.get(pk=light)


def _page_sql(queryset, repeat: int) -> dict:
    """The page query under ``EXPLAIN ANALYZE``: the median execution time (ms) of
    ``repeat`` runs and the plan's nodes (``_plan_rows``)."""
    sql, params = queryset.query.sql_with_params()
    times = []
    with connection.cursor() as cursor:
        for _ in range(repeat):
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
            raw = cursor.fetchone()[0]
            times.append((json.loads(raw) if isinstance(raw, str) else raw)[0]["Execution Time"])
    return {"sql_ms": round(statistics.median(times), 3), "plan": _plan_rows(queryset)}


def list_bench(repeat: int) -> list[dict]:
    rows = []
    for user in _players():
        tables = Seat.objects.filter(user=user).count()
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
        browser = Client()
        browser.force_login(user)
        deep = "/api/v1/tables/"
        for _ in range(min(tables // 50, 20)):  # twenty pages in, where there are
            deep = api.get(deep).json()["next"] or deep
        for label, client, path in (
            ("api first page", api, "/api/v1/tables/"),
            ("api deep page", api, deep),
            ("Mis mesas page", browser, "/"),
        ):
            assert client.get(path).status_code == 200, path
            with CaptureQueriesContext(connection) as queries:
                client.get(path)
            count = len(queries)  # now: each request empties Django's query log
            ms = median_ms(lambda c=client, p=path: c.get(p), repeat)
            row = {"tables": tables, "what": label, "ms": ms, "cpu_ms": LAST_CPU_MS[0]}
            if client is api:  # the page query alone, in PostgreSQL
                cursor = parse_qs(urlparse(path).query).get("cursor", [""])[0]
                row |= _page_sql(listing.page_query(user, cursor), repeat)
            rows.append(row | {"queries": count})
            print(json.dumps(rows[-1]), flush=True)
    return rows


ADMIN_PAGES = (
    "/admin/tables/table/",
    "/admin/tables/table/?status__exact=playing",
    "/admin/tables/table/?stale=1",
    "/admin/tables/hand/",
    "/admin/tables/hand/?end=blocked",
    "/admin/tables/move/",
    "/admin/tables/move/?kind__exact=draw",
    "/admin/accounts/user/",
    "/admin/accounts/user/?is_active__exact=1",
)


def _queries_of(client, path: str) -> dict:
    """One more request's SQL: how many queries, their total and the slowest one's
    milliseconds (Django's own timing, the database's answer included), and its start."""
    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    timed = [(float(q["time"]) * 1000, q["sql"]) for q in queries]
    slowest = max(timed, default=(0.0, ""))
    return {
        "queries": len(timed),
        "sql_ms": round(sum(ms for ms, _sql in timed), 1),
        "slowest_sql_ms": round(slowest[0], 1),
        "slowest_sql": slowest[1][:160],
    }


def admin_bench() -> list[dict]:
    staff, _new = User.objects.get_or_create(
        username="bench-admin", defaults={"is_staff": True, "is_superuser": True}
    )
    browser = Client()
    browser.force_login(staff)
    rows = []
    for path in ADMIN_PAGES:
        response = browser.get(path)
        assert response.status_code == 200, (path, response.status_code)
        ms = median_ms(lambda p=path: browser.get(p), 5)
        rows.append({"page": path, "ms": ms, "cpu_ms": LAST_CPU_MS[0]} | _queries_of(browser, path))
        print(json.dumps(rows[-1]), flush=True)
    with connection.cursor() as cursor:
        began = time.perf_counter()
        cursor.execute("SELECT count(*) FROM tables_move")
        moves = cursor.fetchone()[0]
        ms = round((time.perf_counter() - began) * 1000, 1)
    rows.append({"page": f"(SELECT count(*) FROM tables_move: {moves} rows)", "ms": ms})
    print(json.dumps(rows[-1]), flush=True)
    return rows


def sizes() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        out = {"database_bytes": cursor.fetchone()[0]}
        for table in ("tables_table", "tables_seat", "tables_hand", "tables_move"):
            cursor.execute(f"SELECT count(*), pg_total_relation_size('{table}') FROM {table}")
            out[table] = dict(zip(("rows", "bytes"), cursor.fetchone(), strict=True))
        cursor.execute(
            "SELECT count(*), pg_total_relation_size('notices_notification') "
            "FROM notices_notification"
        )
        out["notices_notification"] = dict(zip(("rows", "bytes"), cursor.fetchone(), strict=True))
        cursor.execute("SELECT count(*) FROM tables_table WHERE status = 'finished'")
        out["finished_tables"] = cursor.fetchone()[0]
    print(json.dumps(out), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--due", type=int, nargs="+", default=[10, 10_000])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json", help="write every row to this file")
    parser.add_argument("--only", choices=["sweeps", "list", "admin", "size"], nargs="+")
    parser.add_argument("--sweeps", choices=list(SWEEPS), nargs="+", default=list(SWEEPS))
    args = parser.parse_args()
    setup_test_environment()
    # As Django's test cases do: one connection for the whole run, not one per request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    parts = args.only or ["size", "sweeps", "list", "admin"]
    result = {}
    for part in parts:
        runner = {
            "size": sizes,
            "sweeps": lambda: sweep_bench(args.due, args.sweeps),
            "list": lambda: list_bench(args.repeat),
            "admin": admin_bench,
        }[part]
        result[part] = runner()
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
