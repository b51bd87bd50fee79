"""One id follows a move from its POST into the worker: the request's log lines and the
lines of the bot's turn it caused in a real Celery worker (and of the "your turn" notice
that turn then sent) carry the same ``request_id`` (django-structlog's Celery support:
the id travels in each task's headers, sent after the answer by ``core.after_response``).
"""

from __future__ import annotations

import json
import os
import random
import time

import pytest

from config.celery_app import app as celery_app
from tables.models import Table
from tests.faults.processes import service_env, start_worker
from tests.support.api import create_table, play_one, table
from tests.test_structured_logs import Lines

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def worker(tmp_path):
    """A `celery worker` writing JSON lines; tasks sent from here go to it."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    celery_app.control.purge()
    process = start_worker(service_env(os.environ["REDIS_URL"], LOG_FORMAT="json"), tmp_path / "w")
    try:
        yield process
    finally:
        process.stop()
        celery_app.conf.task_always_eager = before


def _worker_lines(worker) -> list[dict]:
    text = worker.log.read_text(errors="replace")
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def _wait(condition, worker, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert worker.alive(), worker.output()
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} after {seconds}s:\n{worker.output()}")


def test_the_moves_request_id_is_in_the_workers_lines_of_the_bot_turn_and_the_notice(
    worker, api_client_for, alice
):
    client = api_client_for(alice)
    table_id = create_table(client, 2, ["garabato"], target=100)["id"]
    rng = random.Random(3)
    for _attempt in range(20):
        _wait(lambda: Table.objects.get(pk=table_id).turn_seat == 0, worker, "turn for alice")
        with Lines() as lines:
            answer = play_one(client, table(client, table_id), rng)
        assert answer.status_code == 200, answer.json()
        if answer.json()["turn_seat"] == 1:
            break  # the bot is to answer this move
    else:
        raise AssertionError("no move of alice's gave the bot the turn")
    (finished,) = [
        r
        for r in lines.parsed()
        if r["event"] == "request_finished" and r["request"].startswith("POST")
    ]
    request_id = finished["request_id"]
    enqueued = [r for r in lines.parsed() if r["event"] == "task_enqueued"]
    assert [r["child_task_name"] for r in enqueued] == ["tables.tasks.bot_play"]
    assert enqueued[0]["request_id"] == request_id

    def tasks_of_the_move(event: str):
        return [
            r
            for r in _worker_lines(worker)
            if r.get("request_id") == request_id and r["event"] == event
        ]

    both = {"tables.tasks.bot_play", "notices.tasks.record_turn"}
    _wait(
        lambda: {r["task"] for r in tasks_of_the_move("task_started")} >= both,
        worker,
        "bot_play and record_turn lines with the move's id",
    )
    _wait(lambda: len(tasks_of_the_move("task_succeeded")) >= 2, worker, "both tasks' end")
    succeeded = tasks_of_the_move("task_succeeded")
    assert all(r["user_id"] == alice.pk and r["table_id"] == table_id for r in succeeded)
