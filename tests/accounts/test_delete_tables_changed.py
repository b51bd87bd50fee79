"""Deleting an account abandons every active table the player sits at; a table that ended,
or that the player left, between the listing and the abandon (another request, a worker)
is skipped, not a refusal that undoes the deletion (the web page answered 500, the API 404
``not_found``). The listing is wrapped to change the table right after it, so each race is
played deterministically."""

from __future__ import annotations

import pytest

from accounts import services as account_services
from accounts.models import User
from tables import departures
from tables import services as table_services
from tables.models import Seat, Table
from tests.conftest import PASSWORD
from tests.support.api import create_table, join

pytestmark = pytest.mark.django_db


def _change_after_listing(monkeypatch, change) -> None:
    """``active_table_ids`` answers, then ``change(ids)`` runs before any abandon."""
    listed = departures.active_table_ids

    def listing_then_change(user):
        ids = listed(user)
        change(ids)
        return ids

    monkeypatch.setattr(departures, "active_table_ids", listing_then_change)


def _waiting_with_guest(api_client_for, alice, bob) -> int:
    created = create_table(api_client_for(alice), 3, ["friend", "friend"], target=50)
    join(api_client_for(bob), created["invites"][0]["token"])
    return created["id"]


def _playing(api_client_for, alice, bob) -> int:
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    return created["id"]


def test_a_guest_who_left_the_waiting_table_meanwhile_is_deleted(
    api_client_for, monkeypatch, alice, bob
):
    tid = _waiting_with_guest(api_client_for, alice, bob)
    _change_after_listing(
        monkeypatch, lambda ids: table_services.table_abandon(table_id=tid, user=bob)
    )

    account_services.account_delete(user=bob)

    assert not User.objects.filter(pk=bob.pk).exists()
    table = Table.objects.get(pk=tid)
    assert table.status == Table.Status.WAITING
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.user_id, seat.player_deleted, bool(seat.invite_token)) == (None, False, True)


def test_through_the_api_too(api_client_for, monkeypatch, alice, bob):
    tid = _waiting_with_guest(api_client_for, alice, bob)
    client = api_client_for(bob)
    _change_after_listing(
        monkeypatch, lambda ids: table_services.table_abandon(table_id=tid, user=bob)
    )

    answer = client.post("/api/v1/accounts/delete/", {"password": PASSWORD}, format="json")

    assert answer.status_code == 204, answer.content
    assert not User.objects.filter(pk=bob.pk).exists()


def test_on_the_settings_page_too(api_client_for, client, monkeypatch, alice, bob):
    tid = _waiting_with_guest(api_client_for, alice, bob)
    client.force_login(bob)
    _change_after_listing(
        monkeypatch, lambda ids: table_services.table_abandon(table_id=tid, user=bob)
    )

    answer = client.post("/accounts/settings/delete/", {"password": PASSWORD})

    assert (answer.status_code, answer["Location"]) == (302, "/")
    assert not User.objects.filter(pk=bob.pk).exists()


@pytest.mark.parametrize("how", ["moderator", "rival_left"])
def test_a_table_that_ended_meanwhile_is_skipped(api_client_for, monkeypatch, alice, bob, how):
    tid = _playing(api_client_for, alice, bob)

    def end(ids):
        assert ids == [tid]
        if how == "moderator":
            assert table_services.table_close_by_moderator(table_id=tid)
        else:
            table_services.table_abandon(table_id=tid, user=alice)

    _change_after_listing(monkeypatch, end)

    account_services.account_delete(user=bob)

    assert not User.objects.filter(pk=bob.pk).exists()
    table = Table.objects.get(pk=tid)
    assert table.status in {Table.Status.CLOSED, Table.Status.FINISHED}
    assert table.outcome in {Table.Outcome.MODERATOR, Table.Outcome.ABANDONED}
    assert Seat.objects.get(table=table, index=1).player_deleted


def test_an_unexpected_refusal_still_undoes_everything(api_client_for, monkeypatch, alice, bob):
    tid = _playing(api_client_for, alice, bob)

    def refuse(*, table_id, user):
        raise table_services.TableError("not_your_turn", "No es tu turno.")

    monkeypatch.setattr(table_services, "table_abandon", refuse)

    with pytest.raises(table_services.TableError):
        account_services.account_delete(user=bob)

    assert User.objects.filter(pk=bob.pk).exists()
    assert Table.objects.get(pk=tid).status == Table.Status.PLAYING
