"""Leaving a table still waiting for players (R30): only its creator cancels it (the
others seated are told who did); a guest who came by a share link gives up their seat,
which opens again with a fresh link, the table keeps waiting and the creator is told.
A running match is abandoned as before (R26)."""

from __future__ import annotations

import pytest

from accounts.services import account_delete
from notices import selectors
from notices.models import Notification
from tables.models import Seat, Table
from tests.support.api import create_table, join, table
from tests.tables.test_api_seven_plus_seven import create_7p7

pytestmark = pytest.mark.django_db


def _abandon(client, table_id: int):
    return client.post(f"/api/v1/tables/{table_id}/abandon/")


def _notices(user, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind=kind).order_by("pk"))


def test_a_guest_who_leaves_gives_up_the_seat_and_the_table_waits(
    api_client_for, django_capture_on_commit_callbacks, alice, bob, carol
):
    a, b = api_client_for(alice), api_client_for(bob)
    created = create_table(a, 3, ["friend", "friend"], target=50)
    tid = created["id"]
    old = {invite["seat"]: invite["token"] for invite in created["invites"]}
    join(b, old[1])
    assert table(b, tid)["you_created"] is False

    with django_capture_on_commit_callbacks(execute=True):
        left = _abandon(b, tid)

    assert left.status_code == 200, left.json()
    assert left.json() == {"id": tid, "status": "waiting", "left": True}
    view = table(a, tid)
    assert (view["status"], view["outcome"], view["you_created"]) == ("waiting", None, True)
    assert not view["players"][1]["name"]  # the seat is open again
    fresh = {invite["seat"]: invite["token"] for invite in view["invites"]}
    assert set(fresh) == {1, 2} and fresh[2] == old[2]
    assert fresh[1] != old[1]  # a fresh link: the one bob used cannot be replayed
    assert b.get(f"/api/v1/tables/{tid}/").status_code == 404
    assert b.get("/api/v1/tables/").json()["results"] == []
    for client in (b, api_client_for(carol)):  # neither bob nor anyone he gave it to
        again = client.post(f"/api/v1/invites/{old[1]}/join/")
        assert (again.status_code, again.json()["code"]) == (404, "invite_not_found")
        assert client.get(f"/api/v1/invites/{old[1]}/").status_code == 404
    [notice] = _notices(alice, "seat_left")
    assert (notice.payload["left"], notice.payload["seat"]) == ("bob", 2)
    sentence = selectors.describe(notice)
    assert sentence.startswith(f"bob dejó su asiento en la mesa {tid}: ")
    assert "enlace nuevo" in sentence
    assert _notices(bob, "seat_left") == []
    assert Table.objects.get(pk=tid).status == "waiting"

    # carol takes the reopened seat with its new link; the match waits for seat 3 still
    join(api_client_for(carol), fresh[1])
    assert table(a, tid)["players"][1]["name"] == "carol"
    assert table(a, tid)["status"] == "waiting"


def test_only_the_creator_cancels_a_waiting_table_and_the_guests_are_told(
    api_client_for, django_capture_on_commit_callbacks, alice, bob, carol
):
    a = api_client_for(alice)
    created = create_table(a, 3, ["friend", "friend"], target=50)
    tid = created["id"]
    join(api_client_for(bob), created["invites"][0]["token"])
    with django_capture_on_commit_callbacks(execute=True):
        closed = _abandon(a, tid)
    assert closed.status_code == 200
    assert (closed.json()["status"], closed.json()["outcome"]) == ("closed", "abandoned")
    assert closed.json()["invites"] == []
    [notice] = _notices(bob, "match_over")
    assert selectors.describe(notice) == f"alice canceló la mesa {tid} antes de empezar"
    assert _notices(alice, "match_over") == []  # she did it
    token = created["invites"][1]["token"]
    assert api_client_for(carol).post(f"/api/v1/invites/{token}/join/").status_code == 404


def test_a_stranger_changes_nothing(api_client_for, alice, bob, mallory):
    a = api_client_for(alice)
    created = create_table(a, 3, ["friend", "friend"], target=50)
    join(api_client_for(bob), created["invites"][0]["token"])
    before = table(a, created["id"])
    reply = _abandon(api_client_for(mallory), created["id"])
    assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    after = table(a, created["id"])
    assert after["version"] == before["version"]
    assert after["players"] == before["players"]
    assert after["invites"] == before["invites"]


def test_a_partner_who_leaves_a_four_seat_table_reopens_the_partner_seat(
    api_client_for, alice, bob, carol
):
    a = api_client_for(alice)
    created = create_table(a, 4, ["friend", "friend", "nino"])
    partner = next(invite for invite in created["invites"] if invite["partner"])
    join(api_client_for(bob), partner["token"])
    assert _abandon(api_client_for(bob), created["id"]).json()["left"] is True
    view = table(a, created["id"])
    reopened = next(invite for invite in view["invites"] if invite["seat"] == 2)
    assert reopened["partner"] is True and reopened["token"] != partner["token"]
    assert view["status"] == "waiting"
    join(api_client_for(carol), reopened["token"])
    assert table(a, created["id"])["players"][2]["name"] == "carol"


def test_seven_plus_seven_a_guest_starts_the_match_and_abandons_as_a_pair(
    api_client_for, alice, bob
):
    """The rival pair's one link takes both seats and fills the table: there is no
    waiting seat for a guest to leave, and abandoning is R26 for the pair."""
    created = create_7p7(api_client_for(alice))
    join(api_client_for(bob), created["invites"][0]["token"])
    reply = _abandon(api_client_for(bob), created["id"])
    assert (reply.json()["status"], reply.json()["winners"]) == ("finished", [0, 2])


def test_a_running_match_is_still_lost_by_a_guest_who_leaves(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    reply = _abandon(api_client_for(bob), created["id"])
    assert (reply.json()["status"], reply.json()["winners"]) == ("finished", [0])
    assert Seat.objects.get(table_id=created["id"], index=1).user_id == bob.pk


def test_a_guest_deleting_their_account_gives_up_the_seat_by_name(
    api_client_for, django_capture_on_commit_callbacks, alice, bob
):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"], target=50)
    join(api_client_for(bob), created["invites"][0]["token"])
    with django_capture_on_commit_callbacks(execute=True):
        account_delete(user=bob)
    view = table(api_client_for(alice), created["id"])
    assert view["status"] == "waiting" and len(view["invites"]) == 2
    [notice] = _notices(alice, "seat_left")
    assert selectors.describe(notice).startswith("bob dejó su asiento")
