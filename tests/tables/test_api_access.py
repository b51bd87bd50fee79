"""Who may call what: anonymous callers get 401, mallory (not seated) and players of
other tables get 404 on every table endpoint, and nothing changes (R30, R31)."""

import pytest

from tables.models import Move, Table
from tests.support.api import create_table, join

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(api_client_for, alice, bob):
    """alice and bob at a running 2-seat table; returns (table id, alice's view)."""
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    return created["id"], api_client_for(alice).get(f"/api/v1/tables/{created['id']}/").json()


def _endpoints(table_id: int, state: dict) -> list[tuple[str, str, dict | None]]:
    move = state["game"]["legal_moves"][0] if state["game"]["legal_moves"] else {"tile": "6-6"}
    body = {"tile": move["tile"], "end": move.get("end"), "version": state["version"]}
    return [
        ("get", f"/api/v1/tables/{table_id}/", None),
        ("get", f"/api/v1/tables/{table_id}/moves/", None),
        ("post", f"/api/v1/tables/{table_id}/moves/", body),
        ("get", f"/api/v1/tables/{table_id}/record/", None),
        ("post", f"/api/v1/tables/{table_id}/abandon/", None),
        ("post", f"/api/v1/tables/{table_id}/invites/1/renew/", None),
    ]


def test_it_refuses_anonymous_callers_everywhere(running, anonymous_client):
    table_id, state = running
    for method, url, body in _endpoints(table_id, state) + [
        ("get", "/api/v1/tables/", None),
        ("post", "/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]}),
        ("post", "/api/v1/invites/whatever/join/", None),
    ]:
        response = getattr(anonymous_client, method)(url, body, format="json")
        assert response.status_code == 401, (method, url, response.content)
        assert response.json()["code"] == "not_authenticated"
    assert Table.objects.get(pk=table_id).version == state["version"]


def test_it_hides_the_table_from_mallory(running, api_client_for, mallory):
    table_id, state = running
    client = api_client_for(mallory)
    for method, url, body in _endpoints(table_id, state):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 404, (method, url, response.content)
        assert response.json()["code"] == "not_found"
    assert client.get("/api/v1/tables/").json()["results"] == []
    table = Table.objects.get(pk=table_id)
    assert table.version == state["version"]
    assert table.status == "playing"
    assert Move.objects.filter(table=table).count() == 0


def test_it_hides_one_table_from_another_tables_players(running, api_client_for, carol, dave):
    table_id, state = running
    other = create_table(api_client_for(carol), 2, ["friend"])
    join(api_client_for(dave), other["invites"][0]["token"])
    client = api_client_for(dave)
    for method, url, body in _endpoints(table_id, state):
        assert getattr(client, method)(url, body, format="json").status_code == 404, url
    assert Table.objects.get(pk=table_id).version == state["version"]


def test_it_lets_only_the_creator_renew_an_invite(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    response = api_client_for(bob).post(f"/api/v1/tables/{created['id']}/invites/1/renew/")
    assert response.status_code == 404
    assert Table.objects.get(pk=created["id"]).version == created["version"]


def test_renewing_a_seat_without_a_link_says_so(api_client_for, alice, bob):
    """The creator asking to renew a seat that has no link (her own, a taken one, a
    bot's) got a bare 404 "No encontrado."; a seat the table does not have was the same."""
    created = create_table(api_client_for(alice), 3, ["friend", "nino"])
    renew = f"/api/v1/tables/{created['id']}/invites/%d/renew/"
    creator = api_client_for(alice)

    for seat in (0, 2):
        answer = creator.post(renew % seat)
        assert answer.status_code == 404
        assert answer.json() == {
            "code": "invite_not_found",
            "detail": f"El asiento {seat + 1} (índice {seat}) no tiene un enlace de invitación "
            "que renovar.",
        }
    answer = creator.post(renew % 5)
    assert (answer.status_code, answer.json()["code"]) == (400, "no_such_seat")
    assert answer.json()["detail"] == (
        "No hay asiento de índice 5 en esta mesa: los índices van del 0 al 2 (asientos 1 a 3)."
    )
    assert Table.objects.get(pk=created["id"]).version == created["version"]
