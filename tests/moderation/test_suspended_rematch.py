"""A suspended player and rematches: a tester's suspended mateo asked for the rematch of
his finished match with lucia (201, a new table) and a suspended sofia accepted lucia's
offer (200, a new match started) while creating a table answered her 403 ``suspended``.
A rematch is a new table and accepting one takes a seat: both are now 403 ``suspended``,
with create's body, and change nothing. Declining an offer starts nothing and stays
allowed. The table page leaves out the buttons that would be refused and says why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from moderation.models import ModerationAction
from tables import services
from tables.models import Seat, Table
from tests.support.api import create_table, join

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(api_client_for, alice, bob) -> int:
    """A finished 2-seat match of alice and bob (bob abandons: alice wins)."""
    created = create_table(api_client_for(alice), 2, ["friend"], target=50)
    join(api_client_for(bob), created["invites"][0]["token"])
    services.table_abandon(table_id=created["id"], user=bob)
    return created["id"]


def _suspend(user, mod) -> ModerationAction:
    return ModerationAction.objects.create(
        moderator=mod,
        user=user,
        kind=ModerationAction.Kind.SUSPEND,
        reason="insultos",
        until=timezone.now() + timedelta(days=3),
    )


def _create_refusal(api_client_for, user) -> dict:
    """The body a suspended ``user`` gets for creating a table, to compare with."""
    body = {"seats": 2, "target": 50, "others": ["nino"]}
    answer = api_client_for(user).post("/api/v1/tables/", body, format="json")
    assert answer.status_code == 403
    return answer.json()


def test_a_suspended_bob_cannot_ask_for_the_rematch(api_client_for, finished, alice, bob, mod):
    _suspend(bob, mod)
    tables_before = Table.objects.count()

    asked = api_client_for(bob).post(f"/api/v1/tables/{finished}/rematch/")

    assert asked.status_code == 403
    assert asked.json() == _create_refusal(api_client_for, bob)
    assert asked.json()["code"] == "suspended" and asked.json()["until"]
    assert Table.objects.count() == tables_before
    # alice, not suspended, still may
    assert api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/").status_code == 201


def test_a_suspended_bob_cannot_accept_alices_offer_but_may_decline_it(
    api_client_for, finished, alice, bob, mod
):
    rematch = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/").json()
    _suspend(bob, mod)

    accepted = api_client_for(bob).post(f"/api/v1/tables/{rematch['id']}/rematch/accept/")

    assert accepted.status_code == 403
    assert accepted.json() == _create_refusal(api_client_for, bob)
    table = Table.objects.get(pk=rematch["id"])
    assert (table.status, table.version) == (Table.Status.WAITING, rematch["version"])
    assert Seat.objects.get(table=table, user=bob).joined_at is None

    declined = api_client_for(bob).post(f"/api/v1/tables/{rematch['id']}/rematch/decline/")
    assert declined.status_code == 200, declined.json()
    assert (declined.json()["status"], declined.json()["outcome"]) == ("closed", "declined")


def _root(client: Client, table_id: int) -> str:
    """The table page's root element (its data attributes, read by the rematch script)."""
    html = client.get(f"/mesas/{table_id}/").content.decode()
    start = html.index('<div id="table"')
    return html[start : html.index(">", start)]


def test_the_table_page_tells_the_script_why_bob_gets_no_rematch(
    api_client_for, finished, alice, bob, mod
):
    bob_page, alice_page = Client(), Client()
    bob_page.force_login(bob)
    alice_page.force_login(alice)
    assert "data-refused-rematch" not in _root(bob_page, finished)

    _suspend(bob, mod)

    assert "data-refused-rematch=" in _root(bob_page, finished)
    assert "suspendida hasta el" in _root(bob_page, finished)
    assert "data-refused-rematch" not in _root(alice_page, finished)
    rematch = api_client_for(alice).post(f"/api/v1/tables/{finished}/rematch/").json()
    assert "suspendida hasta el" in _root(bob_page, rematch["id"])  # his offer: no accepting
