"""A rematch where a player's account was deleted (issue 16): the same people can never
sit again, so the rematch is refused at once (409 ``rematch_player_deleted``, nothing
created) and the finished table says so instead of offering "Revancha"; a person who
deletes their account while offered a seat ends the offer at once, not after the 7-day
idle close."""

import pytest

from accounts.services import account_delete
from tables import services
from tables.models import Table
from tests.support.api import create_table, join, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(api_client_for, alice, bob):
    """A finished 3-seat table: alice, bob and Nino (bob abandons)."""
    created = create_table(api_client_for(alice), 3, ["friend", "nino"], target=50)
    join(api_client_for(bob), created["invites"][0]["token"])
    services.table_abandon(table_id=created["id"], user=bob)
    return created["id"]


def test_alice_cannot_ask_for_a_rematch_with_bob_who_deleted_his_account(
    api_client_for, finished, alice, bob
):
    assert table(api_client_for(alice), finished)["rematch_possible"] is True
    account_delete(user=bob)
    before = Table.objects.count()

    refused = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/")

    assert refused.status_code == 409
    assert refused.json()["code"] == "rematch_player_deleted"
    assert "borró su cuenta" in refused.json()["detail"]
    assert Table.objects.count() == before  # nothing waits for a seat nobody can take
    view = table(api_client_for(alice), finished)
    assert view["rematch_possible"] is False and view["rematch"] is None


def test_bob_deleting_his_account_while_offered_ends_the_offer_at_once(
    api_client_for, finished, alice, bob
):
    rematch = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/").json()
    assert rematch["rematch_waiting_for"] == [1]

    account_delete(user=bob)

    row = Table.objects.get(pk=rematch["id"])
    assert row.status == Table.Status.CLOSED  # at once, not after the idle close
    view = table(api_client_for(alice), rematch["id"])
    assert view["status"] == "closed" and view["rematch_waiting_for"] == []
    assert view["players"][1]["name"] == "jugador eliminado"


def test_mallory_is_still_404_at_such_a_table(api_client_for, finished, bob, mallory):
    account_delete(user=bob)
    refused = api_client_for(mallory).post(f"/api/v1/tables/{finished}/rematch/")
    assert refused.status_code == 404
