"""Issue 17 with named actors: carol opens an invite signed out, signs up, verifies and sits;
dave deletes his account in the middle of a 4-seat match."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.models import User
from tables import services as table_services
from tables.models import Seat
from tests.conftest import PASSWORD
from tests.support.api import replay
from tests.support.mail import confirm_link
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-pass-phrase"


# --- carol: invite, sign-up, verification, seat ----------------------------------------


def test_carol_opens_an_invite_signed_out_signs_up_verifies_and_sits(client, alice):
    game = table_services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    invite = f"/invitacion/{Seat.objects.get(table=game, index=1).invite_token}/"
    assert f"/accounts/signup/?next={invite}" in client.get(invite).content.decode()

    r = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "next": invite,
        },
    )
    assert (r.status_code, r.headers["Location"]) == (302, invite)
    carol = User.objects.get(username="carol")
    assert not EmailAddress.objects.get(user=carol).verified

    path, _key = confirm_link("carol@example.com")
    assert client.get(path).status_code == 200
    r = client.post(path)
    assert (r.status_code, r.headers["Location"]) == (302, invite), "back to the invitation"
    assert EmailAddress.objects.get(user=carol).verified

    r = client.post(invite)
    assert r.status_code == 302
    assert Seat.objects.get(table=game, index=1).user == carol


def test_carol_verifies_on_another_device_and_signs_in(client, alice):
    client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    path, _key = confirm_link("carol@example.com")

    phone = Client()
    r = phone.post(path)
    assert r.status_code == 302
    assert EmailAddress.objects.get(email="carol@example.com").verified
    r = phone.post("/accounts/login/", {"login": "carol@example.com", "password": NEW_PASSWORD})
    assert r.status_code == 302


# --- dave deletes his account mid-match ------------------------------------------------


def test_dave_deletes_his_account_in_the_middle_of_a_four_seat_match(
    api_client_for, django_capture_on_commit_callbacks, alice, bob, carol, dave
):
    User.objects.filter(pk=dave.pk).update(email_notifications=True)
    earlier = seat_friends(alice, [dave])
    table_services.table_abandon(table_id=earlier.pk, user=alice)
    earlier_record = api_client_for(alice).get(f"/api/v1/tables/{earlier.pk}/record/").json()
    playing = seat_friends(alice, [bob, carol, dave])
    assert playing.status == "playing"
    dave_client = api_client_for(dave)

    wrong = dave_client.post("/api/v1/accounts/delete/", {"password": "not-it"})
    assert wrong.status_code == 400
    assert wrong.json()["fields"]["password"]
    assert User.objects.filter(pk=dave.pk).exists()

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = dave_client.post("/api/v1/accounts/delete/", {"password": PASSWORD})
    assert r.status_code == 204, r.content

    assert not User.objects.filter(username="dave").exists()
    assert not EmailAddress.objects.filter(email="dave@example.com").exists()
    assert not Token.objects.filter(user_id=dave.pk).exists()
    playing.refresh_from_db()
    assert (playing.status, playing.outcome) == ("finished", "abandoned")
    assert playing.winners == [0, 2], "dave's team (seats 1 and 3) loses by abandonment"
    told = sorted(address for message in mail.outbox for address in message.to)
    assert told == ["alice@example.com", "bob@example.com", "carol@example.com"]
    assert any("jugador eliminado" in message.body for message in mail.outbox)

    seat = Seat.objects.get(table=playing, index=3)
    assert (seat.user_id, seat.player_deleted, seat.display_name) == (
        None,
        True,
        "jugador eliminado",
    )
    view = api_client_for(alice).get(f"/api/v1/tables/{playing.pk}/").json()
    assert "jugador eliminado" in [p["name"] for p in view["players"]]
    for game, before in ((earlier, earlier_record), (playing, None)):
        record = api_client_for(alice).get(f"/api/v1/tables/{game.pk}/record/").json()
        if before is not None:
            assert record["hands"] == before["hands"]
        replay(record)
    assert "jugador eliminado" in client_page(alice, playing.pk)


def client_page(user, table_id: int) -> str:
    browser = Client()
    browser.force_login(user)
    return browser.get(f"/mesas/{table_id}/").content.decode()


def test_deleting_on_the_page_needs_the_password(client, alice):
    client.force_login(alice)
    assert "Eliminar mi cuenta" in client.get("/accounts/settings/delete/").content.decode()

    r = client.post("/accounts/settings/delete/", {"password": "wrong"})
    assert r.status_code == 400
    assert User.objects.filter(pk=alice.pk).exists()

    r = client.post("/accounts/settings/delete/", {"password": PASSWORD})
    assert r.status_code == 302
    assert not User.objects.filter(pk=alice.pk).exists()
    assert "_auth_user_id" not in client.session


def test_a_creator_of_a_waiting_table_deletes_the_account(api_client_for, alice):
    waiting = table_services.table_create(creator=alice, seats=2, target=50, others=["friend"])

    r = api_client_for(alice).post("/api/v1/accounts/delete/", {"password": PASSWORD})

    assert r.status_code == 204
    waiting.refresh_from_db()
    assert (waiting.status, waiting.creator_id) == ("closed", None)
    assert not Seat.objects.filter(table=waiting, invite_token__isnull=False).exists()
