"""The beat sweeps: bounded batches, oldest first, and no table processed twice.

``sweep_absences`` scans the partial index on ``deadline`` and ``sweep_idle`` the one on
``(status, last_move_at)``, at most ``batch`` tables per run; each table is then locked
alone (``select_for_update(skip_locked=True)``) and rechecked, so two workers, or a worker
and a player's move, never act on one table twice. The concurrent cases need PostgreSQL
(SQLite has no row locks).
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction

from tables import services, tasks
from tables.models import Table
from tests.support.clock import T0
from tests.support.database import fresh, human_moves_until_bot_turn, human_table

H48 = timedelta(hours=48)
MINUTE = timedelta(minutes=1)


def _due_tables(clock, users_pairs) -> list[Table]:
    """One started two-person table per pair, created a minute apart (older deadline first)."""
    rows = []
    for n, (creator, friend) in enumerate(users_pairs):
        clock.move_to(T0 + n * MINUTE)
        rows.append(human_table(creator, friend))
    return rows


@pytest.mark.django_db
def test_it_forfeits_at_most_batch_tables_per_sweep_oldest_first(clock, alice, bob, carol):
    pairs = [(alice, bob), (bob, carol), (carol, alice), (alice, carol), (bob, alice)]
    rows = _due_tables(clock, pairs)
    clock.move_to(T0 + 10 * MINUTE + H48)
    for expected in ([0, 1], [2, 3], [4], []):
        before = {row.pk: fresh(row.pk).status for row in rows}
        assert tasks.sweep_absences(batch=2) == len(expected)
        changed = [n for n, row in enumerate(rows) if fresh(row.pk).status != before[row.pk]]
        assert changed == expected
    assert {fresh(row.pk).outcome for row in rows} == {Table.Outcome.ABSENT}


@pytest.mark.django_db
def test_it_leaves_tables_not_yet_due_to_a_later_sweep(clock, alice, bob, carol):
    rows = _due_tables(clock, [(alice, bob), (bob, carol), (carol, alice)])
    # Deadlines are T0+48h, +48h01, +48h02: at +48h00m30s only the first is due.
    clock.move_to(T0 + H48 + timedelta(seconds=30))
    assert tasks.sweep_absences(batch=10) == 1
    assert [fresh(row.pk).status for row in rows] == ["finished", "playing", "playing"]


@pytest.mark.django_db
def test_it_closes_at_most_batch_idle_tables_per_sweep(clock, alice):
    ids = []
    for n in range(5):
        clock.move_to(T0 + n * MINUTE)
        ids.append(services.table_create(creator=alice, seats=2, target=50, others=["friend"]).pk)
    clock.move_to(T0 + timedelta(days=7, minutes=10))
    assert [tasks.sweep_idle(batch=3), tasks.sweep_idle(batch=3), tasks.sweep_idle(batch=3)] == [
        3,
        2,
        0,
    ]
    assert {fresh(pk).outcome for pk in ids} == {Table.Outcome.IDLE}


@pytest.mark.django_db
def test_it_keeps_sweeping_when_one_table_fails(clock, alice, bob, carol, monkeypatch):
    rows = _due_tables(clock, [(alice, bob), (bob, carol), (carol, alice)])
    clock.move_to(T0 + 10 * MINUTE + H48)
    real = services.table_forfeit_overdue

    def broken_for_the_first(*, table_id, **kwargs):
        if table_id == rows[0].pk:
            raise RuntimeError("a broken snapshot")
        return real(table_id=table_id, **kwargs)

    monkeypatch.setattr(services, "table_forfeit_overdue", broken_for_the_first)
    assert tasks.sweep_absences() == 2
    assert [fresh(row.pk).status for row in rows] == ["playing", "finished", "finished"]


# --- PostgreSQL: real row locks -----------------------------------------------------------


def _in_thread(target, *args):
    """Run ``target`` in a thread with its own database connection; returns the thread and
    a list that receives the result (or the exception)."""
    out: list = []

    def run():
        try:
            out.append(target(*args))
        except BaseException as error:  # noqa: BLE001 - reported by the test
            out.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_skips_a_table_another_transaction_holds_and_takes_it_next_time(
    clock, alice, bob, carol
):
    rows = _due_tables(clock, [(alice, bob), (bob, carol)])
    clock.move_to(T0 + 10 * MINUTE + H48)
    locked, release = threading.Event(), threading.Event()

    def hold_first():
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=rows[0].pk)
            locked.set()
            release.wait(10)
        return "released"

    thread, out = _in_thread(hold_first)
    assert locked.wait(10)
    try:
        assert tasks.sweep_absences() == 1  # did not wait for the held row
        assert [fresh(row.pk).status for row in rows] == ["playing", "finished"]
    finally:
        release.set()
        thread.join(10)
    assert out == ["released"]
    assert tasks.sweep_absences() == 1
    assert [fresh(row.pk).status for row in rows] == ["finished", "finished"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_lets_two_concurrent_sweeps_forfeit_each_table_once(clock, alice, bob, carol):
    pairs = [(alice, bob), (bob, carol), (carol, alice)] * 3
    rows = _due_tables(clock, pairs)
    versions = {row.pk: fresh(row.pk).version for row in rows}
    clock.move_to(T0 + 20 * MINUTE + H48)
    start = threading.Barrier(2)

    def sweep():
        start.wait(10)
        return tasks.sweep_absences()

    workers = [_in_thread(sweep) for _ in range(2)]
    for thread, _out in workers:
        thread.join(30)
    results = [out[0] for _thread, out in workers]
    assert all(isinstance(result, int) for result in results), results
    assert sum(results) == len(rows)
    for row in rows:
        done = fresh(row.pk)
        assert done.outcome == Table.Outcome.ABSENT
        assert done.version == versions[row.pk] + 1  # forfeited exactly once


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_plays_a_bot_turn_once_when_two_workers_run_the_same_task(alice, monkeypatch):
    import random

    # Commits are real here: keep the scheduled bot task from running inline.
    monkeypatch.setattr(tasks.bot_play, "apply_async", lambda *args, **kwargs: None)
    created = services.table_create(creator=alice, seats=2, target=100, others=["nino"])
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(1))
    start = threading.Barrier(2)

    def run_task():
        start.wait(10)
        return services.bot_play(table_id=row.pk, version=row.version)

    workers = [_in_thread(run_task) for _ in range(2)]
    for thread, _out in workers:
        thread.join(30)
    assert sorted(out[0] for _thread, out in workers) == [False, True]
    assert fresh(row.pk).version == row.version + 1
