"""Reports: a seated player reports a message they can read, or a player at their table,
with a reason (insults, cheating with a partner, spam, other) and free text; it waits in
the admin's queue, open. Nobody reports what they cannot see."""

from __future__ import annotations

import pytest

from moderation.models import Report
from tests.moderation.conftest import say, talk
from tests.support.api import seated_clients

pytestmark = pytest.mark.django_db


def _report(client, table_id, **body):
    return client.post(f"/api/v1/tables/{table_id}/reports/", body, format="json")


def test_carla_reports_danis_message(four_seats, carla, dani):
    table_id, clients = four_seats
    table_over = clients["ana"].post(f"/api/v1/tables/{table_id}/abandon/")
    assert table_over.status_code == 200  # after the match: talk is delivered at once
    assert say(clients["dani"], table_id, "sois unos paquetes").status_code == 201
    [message] = talk(clients["carla"], table_id)["messages"]
    response = _report(
        clients["carla"], table_id, message=message["id"], reason="insults", text="nos insulta"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "open" and response.json()["reason"] == "insults"
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.message_id) == (carla, dani, message["id"])
    assert report.table_id == table_id and report.text == "nos insulta"


def test_report_a_player_by_seat(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = _report(clients[0], table_id, seat=1, reason="cheating")
    assert response.status_code == 201
    assert Report.objects.get().reported == bob and Report.objects.get().message is None


def test_a_held_message_cannot_be_reported_before_it_is_delivered(four_seats):
    table_id, clients = four_seats
    assert say(clients["ana"], table_id, "psst").status_code == 201
    held = talk(clients["ana"], table_id)["messages"][0]["id"]
    response = _report(clients["carla"], table_id, message=held, reason="cheating")
    assert response.status_code == 404  # carla cannot know it exists yet
    assert not Report.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "insults"},  # neither message nor seat
        {"seat": 1, "message": 1, "reason": "spam"},
        {"seat": 1, "reason": "rude"},
        {"seat": 1},
        {"seat": 0, "reason": "spam"},  # oneself
        {"seat": 1, "reason": "other", "text": "x" * 301},
        {"seat": 1, "reason": "other", "colour": "red"},
    ],
)
def test_bad_reports_are_refused_and_change_nothing(api_client_for, alice, bob, body):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = _report(clients[0], table_id, **body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    assert not Report.objects.exists()


def test_mallory_cannot_report_at_a_table_she_is_not_at(api_client_for, alice, bob, mallory):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, "hola").status_code == 201
    message = talk(clients[1], table_id)["messages"][0]["id"]
    outsider = api_client_for(mallory)
    for body in ({"seat": 0, "reason": "spam"}, {"message": message, "reason": "spam"}):
        response = _report(outsider, table_id, **body)
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert not Report.objects.exists()


def test_reports_are_rate_limited(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    codes = [_report(clients[0], table_id, seat=1, reason="spam").status_code for _ in range(21)]
    assert codes == [201] * 20 + [429]
