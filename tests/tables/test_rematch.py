"""Rematch (issue 16): any seated player of a finished table asks once; the new table has
the same profile, target and seats, bots sit at once, every person is offered their seat
and accepts or declines with one request; it starts when all have accepted."""

import pytest

from tables import services
from tables.models import Table
from tests.support.api import create_table, join, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(api_client_for, alice, bob):
    """A finished 3-seat table: alice, bob and Nino (bob abandons: Nino and alice win)."""
    created = create_table(api_client_for(alice), 3, ["friend", "nino"], target=50)
    join(api_client_for(bob), created["invites"][0]["token"])
    services.table_abandon(table_id=created["id"], user=bob)
    assert Table.objects.get(pk=created["id"]).status == Table.Status.FINISHED
    return created["id"]


def test_both_accept_and_the_rematch_starts(api_client_for, finished, alice, bob):
    asked = api_client_for(bob).post(f"/api/v1/tables/{finished}/rematch/")
    assert asked.status_code == 201, asked.json()
    rematch = asked.json()
    assert (rematch["status"], rematch["seats"], rematch["target"], rematch["rules"]) == (
        "waiting",
        3,
        50,
        "classic",
    )
    assert rematch["rematch_of"] == finished
    assert [p["name"] for p in rematch["players"]] == ["alice", "bob", "Nino"]
    assert rematch["rematch_waiting_for"] == [0] and rematch["rematch_pending"] is False
    assert rematch["invites"] == []

    # The finished table links to its rematch, and alice is asked.
    old = table(api_client_for(alice), finished)
    assert old["rematch"] == {"id": rematch["id"], "status": "waiting"}
    alice_view = table(api_client_for(alice), rematch["id"])
    assert alice_view["rematch_pending"] is True
    listing = api_client_for(alice).get("/api/v1/tables/").json()["results"]
    assert rematch["id"] in [row["id"] for row in listing]

    accepted = api_client_for(alice).post(f"/api/v1/tables/{rematch['id']}/rematch/accept/")
    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["status"] == "playing"
    assert accepted.json()["rematch_pending"] is False
    again = api_client_for(alice).post(f"/api/v1/tables/{rematch['id']}/rematch/accept/")
    assert (again.status_code, again.json()["code"]) == (409, "no_rematch_offer")


def test_a_decline_ends_the_offer(api_client_for, finished, alice):
    rematch = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/").json()
    bob_client = api_client_for(Table.objects.get(pk=finished).seat_set.get(index=1).user)
    declined = bob_client.post(f"/api/v1/tables/{rematch['id']}/rematch/decline/")
    assert declined.status_code == 200
    assert (declined.json()["status"], declined.json()["outcome"]) == ("closed", "declined")
    late = api_client_for(alice).post(f"/api/v1/tables/{rematch['id']}/rematch/accept/")
    assert late.status_code == 409


def test_a_stranger_gets_404_twice_is_409_and_a_running_table_409(
    api_client_for, finished, alice, mallory
):
    assert api_client_for(mallory).post(f"/api/v1/tables/{finished}/rematch/").status_code == 404
    first = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/")
    assert first.status_code == 201
    twice = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/")
    assert (twice.status_code, twice.json()["code"]) == (409, "rematch_exists")
    assert twice.json()["table"] == first.json()["id"]
    running = create_table(api_client_for(alice), 2, ["nino"])
    refused = api_client_for(alice).post(f"/api/v1/tables/{running['id']}/rematch/")
    assert (refused.status_code, refused.json()["code"]) == (409, "table_not_finished")
    # The rematch itself (waiting) cannot be rematched either.
    waiting = api_client_for(alice).post(f"/api/v1/tables/{first.json()['id']}/rematch/")
    assert waiting.status_code == 409
    assert (
        api_client_for(mallory)
        .post(f"/api/v1/tables/{first.json()['id']}/rematch/accept/")
        .status_code
        == 404
    )


def test_against_bots_only_the_rematch_starts_at_once(api_client_for, alice):
    created = create_table(api_client_for(alice), 2, ["nino"])
    services.table_abandon(table_id=created["id"], user=alice)
    rematch = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/rematch/")
    assert rematch.status_code == 201
    assert rematch.json()["status"] == "playing"


def test_the_idle_close_ends_an_unanswered_offer(api_client_for, finished, alice):
    from datetime import timedelta

    from django.utils import timezone

    rematch = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/").json()
    later = timezone.now() + timedelta(days=8)
    assert services.table_close_idle(table_id=rematch["id"], now=later)
    row = Table.objects.get(pk=rematch["id"])
    assert (row.status, row.outcome) == ("closed", "idle")
