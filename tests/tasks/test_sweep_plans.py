"""Every sweep reads through an index: its cost follows the due rows, not the table count.

A world of 2,000 tables (``tests.support.world``: 1,500 finished with their hands and moves,
500 running) is built in the test database; for each beat sweep a few rows are made due,
the sweep runs, and every query it sent (the due scan and each table's lock, reads and
writes) is explained by PostgreSQL. The test fails on a sequential scan of the tables,
seats, hands, moves or notifications, and on an index scan of those that reads the whole
index (no ``Index Cond``, and not a partial index whose condition is the filter), and,
running each SELECT again under ``EXPLAIN ANALYZE``, on a scan that throws away more than
``WASTE`` rows: an index on ``status`` alone would read every running table to find the
few stuck bots, and the deadline index alone every turn already reminded.

At 2,000 tables the planner may rightly prefer a sequential scan of a small table, so the
plans are taken with ``enable_seqscan = off``: then PostgreSQL still scans sequentially
only when no index can answer the query, which is exactly what this test is for. (At
100,000 tables the plans are the same; ``python -m bench.world_bench`` times them.)
"""

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.compiled_queries import STATEMENT_SEPARATOR
from notices import tasks as notice_tasks
from notices.models import Notification
from tables import tasks
from tables.models import Table
from tests.support.world import build

WATCHED = {
    "tables_table",
    "tables_seat",
    "tables_hand",
    "tables_move",
    "notices_notification",
    "tables_emaildelivery",
}
DUE = 3
#: A scan may filter out this many rows (a table's other hands, a seat's other notices);
#: a due query that reads every running table (about 475 here) to find 3 fails.
WASTE = 50
#: The relations the due queries scan (a table's moves and hands are read by table, and
#: a table's whole log may rightly be read and filtered).
DUE_SCANNED = {"tables_table", "notices_notification"}


def _make_due(name: str, now) -> None:
    """Make ``DUE`` rows due for sweep ``name`` (the world has none due)."""
    playing = Table.objects.filter(status=Table.Status.PLAYING)
    pick = None
    if name == "absences":
        pick = playing.filter(deadline__isnull=False), {"deadline": now - timedelta(minutes=1)}
    elif name == "idle":
        old = now - timedelta(seconds=settings.IDLE_SECONDS + 3600)
        pick = playing, {"last_move_at": old}
    elif name == "stuck_bots":
        stuck = now - timedelta(hours=1)
        pick = playing.filter(deadline__isnull=True), {"turn_started_at": stuck}
    elif name == "reminders":
        soon, due = now + timedelta(hours=1), now - timedelta(hours=23)
        values = {"deadline": soon, "remind_at": due, "reminded_version": None}
        pick = playing.filter(deadline__isnull=False), values
    elif name == "emails":
        due = {"email": "pending", "email_due_at": now - timedelta(minutes=1)}
        Notification.objects.filter(pk__in=_ids(Notification.objects.all())).update(**due)
    elif name == "pushes":
        Notification.objects.filter(pk__in=_ids(Notification.objects.all())).update(push="pending")
    if pick is not None:
        rows, values = pick
        assert Table.objects.filter(pk__in=_ids(rows)).update(**values) == DUE, name


def _ids(queryset) -> list[int]:
    return list(queryset.order_by("pk").values_list("pk", flat=True)[:DUE])


SWEEPS = {
    "absences": tasks.sweep_absences,
    "idle": tasks.sweep_idle,
    "stuck_bots": tasks.sweep_stuck_bots,
    "reminders": notice_tasks.sweep_reminders,
    "move_requests": tasks.sweep_move_requests,
    "email_deliveries": tasks.sweep_email_deliveries,
    "emails": notice_tasks.deliver_emails,
    "pushes": notice_tasks.deliver_pushes,
}


def _nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def _whole_scans(sql: str, cursor, partial: set[str]) -> list[str]:
    """The scans of ``WATCHED`` relations in ``sql``'s plan that read them whole."""
    cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
    raw = cursor.fetchone()[0]
    plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    bad = []
    for node in _nodes(plan):
        kind, relation = node["Node Type"], node.get("Relation Name")
        index = node.get("Index Name", "")
        if kind == "Seq Scan" and relation in WATCHED:
            bad.append(f"Seq Scan on {relation}")
        elif "Index" in kind and index and "Index Cond" not in node and index not in partial:
            owner = relation or index
            if relation in WATCHED or any(index.startswith(name[:5]) for name in WATCHED):
                bad.append(f"{kind} of the whole {index} on {owner}")
    return bad


def _wasted_rows(sql: str, cursor) -> list[str]:
    """The scans of ``DUE_SCANNED`` relations in ``sql``'s executed plan (a SELECT) that read
    more than ``WASTE`` rows only to throw them away: a range that is not what is due
    (all running tables, say, filtered down to the stuck bots)."""
    cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
    raw = cursor.fetchone()[0]
    plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    bad = []
    for node in _nodes(plan):
        thrown = node.get("Rows Removed by Filter", 0) + node.get(
            "Rows Removed by Index Recheck", 0
        )
        if node.get("Relation Name") in WATCHED and thrown > WASTE:
            bad.append(f"{node['Node Type']} on {node['Relation Name']} threw away {thrown} rows")
    return bad


def _statements(captured) -> list[str]:
    """The reads and writes captured, one statement each: a query that carried others in
    its round trip (``STATEMENT_SEPARATOR``: a move's Move INSERT on the table's UPDATE)
    is split back into them, so that ``EXPLAIN`` runs on one and never executes another."""
    verbs = ("SELECT", "UPDATE", "DELETE", "WITH")
    sent = [part for q in captured for part in q["sql"].split(STATEMENT_SEPARATOR)]
    return [sql for sql in sent if sql.lstrip().upper().startswith(verbs)]


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db
def test_every_sweep_reads_only_due_rows_through_an_index():
    world = build(players=400, finished=1500, running=500, template_count=2, seed=7, bot_turns=0.1)
    assert world.rows["Table"] == 2000 and world.rows["Move"] > 50_000
    now = timezone.now()
    failures, ran = {}, {}
    for name, sweep in SWEEPS.items():
        _make_due(name, now)
        with CaptureQueriesContext(connection) as captured:
            ran[name] = sweep()
        statements = _statements(captured)
        assert statements, name
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indexrelid::regclass::text FROM pg_index WHERE indpred IS NOT NULL"
            )
            partial = {row[0] for row in cursor.fetchall()}
            cursor.execute("SET LOCAL enable_seqscan = off")
            for sql in statements:
                found = _whole_scans(sql, cursor, partial)
                if sql.lstrip().upper().startswith("SELECT"):
                    found += _wasted_rows(sql, cursor)
                for scan in found:
                    failures.setdefault(name, []).append(f"{scan}: {sql[:300]}")
            cursor.execute("SET LOCAL enable_seqscan = on")
    assert not failures, json.dumps(failures, indent=1)
    # the sweeps did their work on the due rows (so their per-table queries were seen)
    # (at least: more may have come due by themselves while the world was built)
    assert ran["absences"] >= DUE and ran["idle"] >= DUE and ran["reminders"] >= 1, ran
    assert ran["stuck_bots"] >= DUE, ran


def test_a_sequential_scan_is_caught(db):
    """The plan reader itself: a query with no usable index is reported."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: EXPLAIN (FORMAT JSON)")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql = "SELECT id FROM tables_table WHERE rules = 'classic'"
        assert _whole_scans(sql, cursor, set()) == ["Seq Scan on tables_table"]
        sql = "SELECT id FROM tables_table WHERE id = 1"
        assert _whole_scans(sql, cursor, set()) == []
