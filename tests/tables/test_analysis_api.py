"""``/api/v1/tables/{id}/analysis/`` (issue 20): only a finished match's players ask for
and read its analysis; it is computed at most once and stored once per match; the record
carries it once done."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import MatchAnalysis
from tests.support.api import replay
from tests.support.finished import quick_finished_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, django_capture_on_commit_callbacks):
    """alice and bob (partners) against two Ninos, a match to 50 played to its end."""
    return quick_finished_table(
        [alice, bob], ["nino", "friend", "nino"], 4, django_capture_on_commit_callbacks
    )


def _path(table) -> str:
    return f"/api/v1/tables/{table.pk}/analysis/"


def test_strangers_get_404_and_a_running_match_409(
    api_client_for, alice, mallory, finished, anonymous_client
):
    stranger = api_client_for(mallory)
    for answer in (stranger.get(_path(finished)), stranger.post(_path(finished))):
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert anonymous_client.post(_path(finished)).status_code in (401, 403)
    running = services.table_create(creator=alice, seats=2, target=50, others=["nino"])
    client = api_client_for(alice)
    for answer in (client.get(_path(running)), client.post(_path(running))):
        assert answer.status_code == 409 and answer.json()["code"] == "table_not_finished"
    assert not MatchAnalysis.objects.exists()


def test_asked_twice_it_is_queued_once(
    api_client_for, alice, bob, finished, django_capture_on_commit_callbacks
):
    assert api_client_for(alice).get(_path(finished)).json()["status"] == "none"
    with django_capture_on_commit_callbacks(execute=False) as first:
        answer = api_client_for(alice).post(_path(finished))
    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    with django_capture_on_commit_callbacks(execute=False) as second:
        again = api_client_for(bob).post(_path(finished))
    assert again.status_code == 200 and again.json()["status"] == "queued"
    assert (len(first), len(second)) == (1, 0)
    assert MatchAnalysis.objects.filter(table=finished).count() == 1


def test_the_players_seats_are_judged_the_bots_are_not(
    api_client_for, alice, bob, finished, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_client_for(alice).post(_path(finished))
    assert answer.status_code == 202
    state = api_client_for(bob).get(_path(finished)).json()
    assert state["status"] == "done"
    result = state["result"]
    assert state["progress"] == {"done": len(result["moves"]), "total": len(result["moves"])}
    assert result["format"] == "dominoes-analysis/1" and result["seats"] == [0, 2]
    assert {move["seat"] for move in result["moves"]} == {0, 2}
    assert [row["seat"] for row in result["summary"]] == [0, 2]
    for row in result["summary"]:
        marked = row["inaccuracies"] + row["errors"] + row["blunders"]
        assert row["moves_analysed"] > 0 and marked <= row["moves_analysed"]
    # Computed at most once: the task delivered again does nothing.
    row = MatchAnalysis.objects.get(table=finished)
    assert services.analysis_run(analysis_id=row.pk) is False
    assert MatchAnalysis.objects.get(pk=row.pk).result == result


def test_the_record_carries_the_analysis_once_done(
    api_client_for, alice, finished, django_capture_on_commit_callbacks
):
    client = api_client_for(alice)
    before = client.get(f"/api/v1/tables/{finished.pk}/record/").json()
    assert "analysis" not in before
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_path(finished))
    record = client.get(f"/api/v1/tables/{finished.pk}/record/").json()
    assert record["analysis"] == client.get(_path(finished)).json()["result"]
    assert replay(record) == replay(before)  # `python -m dominoes replay` reads past it


def test_a_failed_analysis_is_queued_again(
    api_client_for, alice, finished, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        api_client_for(alice).post(_path(finished))
    MatchAnalysis.objects.filter(table=finished).update(status=MatchAnalysis.Status.FAILED)
    assert api_client_for(alice).get(_path(finished)).json()["status"] == "failed"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        answer = api_client_for(alice).post(_path(finished))
    assert answer.status_code == 202 and len(callbacks) == 1
    assert api_client_for(alice).get(_path(finished)).json()["status"] == "done"
