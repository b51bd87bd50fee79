"""The real thing: a Celery worker process on the real Redis broker, against the test
PostgreSQL database, plays every bot turn while alice plays hers through the API.

The test process sends tasks (``CELERY_TASK_ALWAYS_EAGER`` off for this test only) and
never runs ``bot_play`` itself: that is checked by making it fail here. The worker gets the
test settings and a DATABASE_URL naming pytest-django's test database; the data it must see
is committed (``transaction=True``). The match's Move rows must replay with
``python -m dominoes replay`` to the result the table shows.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from config.celery_app import app as celery_app
from core.throttling import ScopedWriteRateThrottle
from tables import services
from tables.models import Hand, Move, Table
from tests.faults.processes import service_env, start_worker
from tests.support.api import create_table, play_one, replay, table

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

TIME_LIMIT = 60  # seconds for the whole match


@pytest.fixture
def broker_not_eager():
    """Tasks sent from this process go to Redis instead of running inline."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    celery_app.control.purge()  # nothing left over from another run
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = before


@pytest.fixture
def worker(broker_not_eager, tmp_path):
    """A `celery worker` process; terminated and waited for at the end, also on failure."""
    process = start_worker(service_env(os.environ["REDIS_URL"]), tmp_path / "worker.log")
    try:
        yield process
    finally:
        process.stop()


def _log(worker) -> str:
    return worker.output(4000)


def _record_from_rows(table_id: int) -> dict:
    """A ``dominoes-record/1`` built from the Hand and Move rows alone (not the snapshot)."""
    row = Table.objects.get(pk=table_id)
    hands = []
    for hand in Hand.objects.filter(table_id=table_id).order_by("number"):
        actions = []
        for move in Move.objects.filter(hand=hand).order_by("sequence"):
            action: dict = {"seat": move.seat}
            if move.kind == "play":
                action["play"] = move.tile
                if move.end is not None:
                    action["end"] = move.end
            elif move.kind == "draw":
                action["draw"] = move.tile
            else:
                action["pass"] = True
            actions.append(action)
        hands.append(
            {
                "dealt": hand.dealt,
                "stock": hand.stock,
                "seed_sha256": hand.seed_sha256,
                "seed": hand.seed,
                "actions": actions,
            }
        )
    return {
        "format": "dominoes-record/1",
        "rules": row.rules,
        "seats": row.seats,
        "target": row.target,
        "hands": hands,
    }


def test_it_lets_a_real_worker_play_the_bot_through_a_whole_match(
    worker, api_client_for, alice, monkeypatch
):
    def not_here(**kwargs):
        raise AssertionError("the test process played a bot turn: only the worker may")

    monkeypatch.setattr(services, "bot_play", not_here)
    # A long match against a quick worker can pass 120 of alice's moves in a minute (a CI
    # run got 429 after 120 in 7 s): the move limit is not what this test is about.
    monkeypatch.setitem(ScopedWriteRateThrottle.THROTTLE_RATES, "moves", "100000/min")
    client = api_client_for(alice)
    rng = random.Random(11)
    created = create_table(client, 2, ["garabato"], target=50)
    table_id = created["id"]
    deadline = time.monotonic() + TIME_LIMIT
    alice_moves = 0
    while True:
        assert worker.alive(), f"the worker died:\n{_log(worker)}"
        assert time.monotonic() < deadline, f"no end after {TIME_LIMIT}s:\n{_log(worker)}"
        row = Table.objects.get(pk=table_id)
        if row.status != Table.Status.PLAYING:
            break
        if row.turn_seat != 0:
            time.sleep(0.02)  # the bot's turn: the worker plays it
            continue
        response = play_one(client, table(client, table_id), rng)
        assert response.status_code == 200, response.json()
        alice_moves += 1

    row = Table.objects.get(pk=table_id)
    assert row.status == Table.Status.FINISHED
    assert row.outcome == Table.Outcome.TARGET
    assert len(row.winners) == 1
    assert alice_moves > 0
    bot_plays = Move.objects.filter(table_id=table_id, seat=1, kind="play", automatic=False)
    assert bot_plays.count() > 0
    assert "tables.tasks.bot_play" in worker.log.read_text(errors="replace")

    exported = client.get(f"/api/v1/tables/{table_id}/record/").json()
    from_rows = _record_from_rows(table_id)
    assert from_rows["hands"] == exported["hands"]  # the log and the snapshot agree
    answer = replay(from_rows)
    assert answer["ok"] is True
    assert answer["winner"] == row.winners
    state = table(client, table_id)
    assert answer["scores"] == state["game"]["scores"]
    assert max(answer["scores"]) >= 50
