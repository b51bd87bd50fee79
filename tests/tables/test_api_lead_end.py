"""A lead has no ends (R11): a first move that names an ``end`` is refused with 400
``invalid`` (``fields.end``, rule R11) and changes nothing, where the engine ignored it
and the move was played (``{"tile": "6-6", "end": 9}`` answered 200)."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Move, Table
from tests.support.pages import player_to_move, seat_friends

pytestmark = pytest.mark.django_db


def _lead_tile(table: Table) -> str:
    """The tile that must lead the first hand (R7-R9: 6-6 unless it is in the stock)."""
    return str(services.match_of(table).hand.required_lead)


def _lead(client, table: Table, end, **headers):
    return client.post(
        f"/api/v1/tables/{table.pk}/moves/",
        {"tile": _lead_tile(table), "end": end, "version": table.version},
        format="json",
        **headers,
    )


def _unchanged(table: Table) -> None:
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.version == table.version
    assert fresh.state == table.state
    assert not Move.objects.filter(table=table).exists()


@pytest.mark.parametrize("end", [5, 6, 9, 0])
def test_it_refuses_an_end_on_the_lead(api_client_for, alice, bob, end):
    table = seat_friends(alice, [bob])
    leader = player_to_move(table, [alice, bob])
    response = _lead(api_client_for(leader), table, end)
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "invalid"
    assert body["rule"] == "R11"
    assert body["detail"] == (
        "La salida no tiene puntas (Regla R11): juega la ficha sin elegir punta."
    )
    assert body["fields"] == {"end": [body["detail"]]}
    _unchanged(table)


def test_it_says_so_in_english(api_client_for, alice, bob):
    table = seat_friends(alice, [bob])
    client = api_client_for(player_to_move(table, [alice, bob]))
    response = _lead(client, table, 5, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "A lead has no ends yet (Rule R11): play the tile without choosing an end."
    )
    _unchanged(table)


def test_the_lead_without_an_end_is_played(api_client_for, alice, bob):
    table = seat_friends(alice, [bob])
    leader = player_to_move(table, [alice, bob])
    response = _lead(api_client_for(leader), table, None)
    assert response.status_code == 200, response.json()
    assert len(response.json()["game"]["line"]) == 1


def test_a_seat_not_to_lead_still_hears_not_your_turn(api_client_for, alice, bob):
    table = seat_friends(alice, [bob])
    other = bob if player_to_move(table, [alice, bob]) == alice else alice
    response = _lead(api_client_for(other), table, 5)
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"
    _unchanged(table)


def test_mallory_is_refused(api_client_for, alice, bob, mallory):
    table = seat_friends(alice, [bob])
    response = _lead(api_client_for(mallory), table, 5)
    assert response.status_code == 404
    _unchanged(table)
