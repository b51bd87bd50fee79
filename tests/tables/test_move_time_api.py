"""The move time through the API (R27, issue 16): ``move_days`` on create (1, 2, 3 or 7,
a friends' table only), ``move_seconds`` in every answer; anything else is refused and
creates nothing."""

import pytest

from tables import services
from tables.errors import TableError
from tables.models import Table
from tests.support.api import create_table, join

pytestmark = pytest.mark.django_db


def _create(client, **fields):
    body = {"seats": 2, "target": 50, "others": ["friend"]} | fields
    return client.post("/api/v1/tables/", body, format="json")


@pytest.mark.parametrize("days", [0, 5, 14, "two", None])
def test_alice_asking_for_another_move_time_is_refused_and_nothing_is_created(
    api_client_for, alice, days
):
    response = _create(api_client_for(alice), move_days=days)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and "move_days" in body["fields"]
    assert not Table.objects.exists()


def test_the_default_is_two_days_and_every_choice_is_stored(api_client_for, alice):
    client = api_client_for(alice)
    assert _create(client).json()["move_seconds"] == 172800
    for days in (1, 2, 3, 7):
        created = _create(client, move_days=days).json()
        assert created["move_seconds"] == days * 86400
        assert Table.objects.get(pk=created["id"]).move_seconds == days * 86400
    listing = client.get("/api/v1/tables/").json()["results"]
    assert sorted(row["move_seconds"] for row in listing) == sorted(
        [172800, 86400, 172800, 259200, 604800]
    )


def test_a_table_against_bots_only_keeps_the_default(api_client_for, alice):
    created = _create(api_client_for(alice), others=["nino"], move_days=7).json()
    assert created["status"] == "playing"
    assert created["move_seconds"] == 172800


def test_bob_who_joins_sees_the_move_time_and_mallory_does_not(api_client_for, alice, bob, mallory):
    created = _create(api_client_for(alice), move_days=1).json()
    joined = join(api_client_for(bob), created["invites"][0]["token"])
    assert joined["move_seconds"] == 86400
    refused = api_client_for(mallory).get(f"/api/v1/tables/{created['id']}/")
    assert refused.status_code == 404
    assert "move_seconds" not in refused.json()


def test_the_service_refuses_a_move_time_not_offered(alice):
    with pytest.raises(TableError) as refused:
        services.table_create(creator=alice, seats=2, others=["friend"], move_days=4)
    assert (refused.value.code, refused.value.rule) == ("invalid_table", "R27")
    assert not Table.objects.exists()


def test_a_table_made_without_a_choice_still_has_the_default(api_client_for, alice):
    created = create_table(api_client_for(alice), 3, ["friend", "nino"])
    assert created["move_seconds"] == 172800
