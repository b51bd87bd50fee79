"""A finished match's analysis computed by a real Celery worker on the real Redis broker
(issue 20): the API queues it, only the worker runs it, the page's poll sees it progress
to done, and a duplicated delivery of the task computes nothing again."""

from __future__ import annotations

import contextlib
import time

import pytest

from tables import tasks
from tables.models import MatchAnalysis
from tests.support.finished import quick_finished_table
from tests.tasks.test_celery_worker import _log, broker_not_eager, worker  # noqa: F401

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

TIME_LIMIT = 90  # seconds for the worker to analyse the match


def _wait_done(process, row_id: int) -> MatchAnalysis:
    deadline = time.monotonic() + TIME_LIMIT
    while True:
        row = MatchAnalysis.objects.get(pk=row_id)
        if row.status == MatchAnalysis.Status.DONE:
            return row
        assert row.status != MatchAnalysis.Status.FAILED, _log(process)
        assert process.alive(), f"the worker died:\n{_log(process)}"
        assert time.monotonic() < deadline, f"not done after {TIME_LIMIT}s:\n{_log(process)}"
        time.sleep(0.2)


def test_a_real_worker_analyses_the_match_once(alice, api_client_for, monkeypatch, request):
    table = quick_finished_table([alice], ["nino"], 9, lambda **_: contextlib.nullcontext())
    running = request.getfixturevalue("worker")  # started after the match is over

    def not_here(**_):
        raise AssertionError("the test process ran the analysis: only the worker may")

    monkeypatch.setattr(tasks.services, "analysis_run", not_here)
    client = api_client_for(alice)
    answer = client.post(f"/api/v1/tables/{table.pk}/analysis/")
    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    row = _wait_done(running, MatchAnalysis.objects.get(table=table).pk)
    state = client.get(f"/api/v1/tables/{table.pk}/analysis/").json()
    assert state["status"] == "done" and state["result"]["seats"] == [0]
    assert state["progress"]["done"] == state["progress"]["total"] == len(state["result"]["moves"])
    assert "tables.tasks.analyse_match" in running.log.read_text(errors="replace")

    # The same task delivered again (a broker redelivery): the worker leaves it alone.
    tasks.analyse_match.apply_async((row.pk,))
    time.sleep(3)
    again = MatchAnalysis.objects.get(pk=row.pk)
    assert (again.status, again.finished_at, again.result) == (
        MatchAnalysis.Status.DONE,
        row.finished_at,
        row.result,
    )
    assert client.post(f"/api/v1/tables/{table.pk}/analysis/").status_code == 200
