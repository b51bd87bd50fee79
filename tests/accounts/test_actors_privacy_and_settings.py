"""Issue 17 with named actors: mallory cannot learn whether an e-mail has an account; signing
out everywhere, downloading one's data and the rest of the mobile account API."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables import services as table_services
from tables.models import Seat
from tests.conftest import PASSWORD
from tests.support.api import replay
from tests.support.mail import confirm_link, mails_to
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-pass-phrase"


# --- mallory cannot enumerate ----------------------------------------------------------


def test_mallory_cannot_tell_from_a_signup_whether_an_email_has_an_account(anonymous_client, alice):
    taken = anonymous_client.post(
        "/api/v1/accounts/signup/",
        {"username": "mallory2", "password": NEW_PASSWORD, "email": "alice@example.com"},
    )
    fresh = anonymous_client.post(
        "/api/v1/accounts/signup/",
        {"username": "mallory3", "password": NEW_PASSWORD, "email": "nobody@example.com"},
    )

    assert taken.status_code == fresh.status_code == 201
    assert set(taken.json()) == set(fresh.json()) == {"username", "token"}
    to_alice = mails_to("alice@example.com")
    assert len(to_alice) == 1 and "/accounts/confirm-email/" not in to_alice[0].body
    assert "/accounts/confirm-email/" in mails_to("nobody@example.com")[0].body
    assert not EmailAddress.objects.filter(user__username="mallory2", verified=True).exists()
    assert EmailAddress.objects.get(email="alice@example.com", verified=True).user == alice


def test_mallory_cannot_tell_from_a_reset_or_a_login_whether_an_account_exists(alice):
    answers = []
    for email in ("alice@example.com", "nobody@example.com"):
        r = APIClient().post("/api/v1/accounts/password/reset/", {"email": email})
        answers.append((r.status_code, r.json()))
    assert answers[0] == answers[1]

    pages = [
        Client().post("/accounts/password/reset/", {"email": e})
        for e in ("alice@example.com", "nobody@example.com")
    ]
    assert [(p.status_code, p.headers.get("Location")) for p in pages[:1]] == [
        (p.status_code, p.headers.get("Location")) for p in pages[1:]
    ]

    logins = [
        APIClient().post("/api/v1/accounts/token/", {"username": login, "password": "wrong"})
        for login in ("alice", "alice@example.com", "nobody", "nobody@example.com")
    ]
    assert {(r.status_code, r.json()["code"], r.json()["detail"]) for r in logins} == {
        (400, "invalid_credentials", logins[0].json()["detail"])
    }


# --- settings: sign out everywhere, download my data -------------------------------------


def test_signing_out_everywhere_keeps_this_session_and_ends_the_others(api_client_for, alice):
    here, elsewhere = Client(), Client()
    here.force_login(alice)
    elsewhere.force_login(alice)
    app = api_client_for(alice)
    assert app.get("/api/v1/me/").status_code == 200

    r = here.post("/accounts/settings/sign-out-everywhere/")

    assert r.status_code == 302
    assert here.get("/accounts/settings/").status_code == 200
    assert elsewhere.get("/accounts/settings/").status_code == 302
    assert app.get("/api/v1/me/").status_code == 401
    assert not Token.objects.filter(user=alice).exists()


def test_download_my_data_has_the_profile_tables_and_finished_records(api_client_for, alice, bob):
    finished = seat_friends(alice, [bob])
    table_services.table_abandon(table_id=finished.pk, user=bob)
    running = seat_friends(alice, [bob])
    hand = running.hands.get(ended_at__isnull=True)

    r = api_client_for(alice).get("/api/v1/accounts/data/")

    assert r.status_code == 200
    assert "attachment" in r.headers["Content-Disposition"]
    data = r.json()
    assert data["profile"]["username"] == "alice"
    assert data["email_addresses"] == [
        {"email": "alice@example.com", "verified": True, "primary": True}
    ]
    by_id = {entry["id"]: entry for entry in data["tables"]}
    assert set(by_id) == {finished.pk, running.pk}
    replay(by_id[finished.pk]["record"])
    assert "record" not in by_id[running.pk]
    assert hand.seed not in r.content.decode(), "never a running hand's seed"

    page = Client()
    page.force_login(alice)
    download = page.get("/accounts/settings/data/")
    assert download.status_code == 200
    assert download.json()["tables"] == data["tables"]


# --- the rest of the mobile API ----------------------------------------------------------


def test_the_app_changes_the_password_and_signs_out_everywhere(api_client_for, alice):
    app = api_client_for(alice)

    wrong = app.post(
        "/api/v1/accounts/password/change/",
        {"old_password": "nope", "new_password": NEW_PASSWORD},
    )
    assert wrong.status_code == 400
    assert list(wrong.json()["fields"]) == ["old_password"]

    weak = app.post(
        "/api/v1/accounts/password/change/", {"old_password": PASSWORD, "new_password": "123"}
    )
    assert weak.status_code == 400
    assert "new_password" in weak.json()["fields"]

    r = app.post(
        "/api/v1/accounts/password/change/",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert r.status_code == 200, r.content
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert app.get("/api/v1/me/").status_code == 200, "the token stays"

    assert app.post("/api/v1/accounts/sign-out-everywhere/").status_code == 204
    assert app.get("/api/v1/me/").status_code == 401
    assert not Token.objects.filter(user=alice).exists()


def test_a_bad_verification_key_is_400_and_verifies_nothing(anonymous_client, bob):
    EmailAddress.objects.filter(user=bob).update(verified=False)

    r = anonymous_client.post("/api/v1/accounts/email/verify/", {"key": "not-a-key"})

    assert r.status_code == 400
    assert (r.json()["code"], list(r.json()["fields"])) == ("invalid", ["key"])
    assert not EmailAddress.objects.get(user=bob).verified


def test_an_old_account_without_email_adds_one_from_the_app(api_client_for, django_user_model):
    old = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    app = api_client_for(old)
    assert app.get("/api/v1/accounts/email/").json() == {
        "email": "",
        "verified": False,
        "addresses": [],
    }

    r = app.post("/api/v1/accounts/email/", {"email": "olga@example.com"})

    assert r.status_code == 202
    _path, key = confirm_link("olga@example.com")
    assert APIClient().post("/api/v1/accounts/email/verify/", {"key": key}).status_code == 200
    assert app.get("/api/v1/accounts/email/").json()["verified"] is True
    old.refresh_from_db()
    assert old.email == "olga@example.com"


def test_the_account_endpoints_are_in_the_schema(anonymous_client):
    schema = anonymous_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()
    for path in (
        "/api/v1/accounts/email/",
        "/api/v1/accounts/email/resend/",
        "/api/v1/accounts/email/verify/",
        "/api/v1/accounts/password/reset/",
        "/api/v1/accounts/password/reset/key/",
        "/api/v1/accounts/password/change/",
        "/api/v1/accounts/sign-out-everywhere/",
        "/api/v1/accounts/data/",
        "/api/v1/accounts/delete/",
    ):
        assert path in paths["paths"], path


def test_a_player_who_already_left_a_first_double_hand_deletes_the_account(
    api_client_for, django_capture_on_commit_callbacks, alice, bob, carol, dave
):
    """first_double at 4 seats: a leaver sits out and the hand goes on (seeds/001). dave
    leaves, then deletes his account: the others play on, his seat is «jugador eliminado»."""
    game = table_services.table_create(
        creator=alice, seats=4, others=["friend"] * 3, rules="first_double"
    )
    for index, friend in enumerate([bob, carol, dave], start=1):
        token = Seat.objects.get(table=game, index=index).invite_token
        table_services.seat_join(token=token, user=friend)
    with django_capture_on_commit_callbacks(execute=True):
        table_services.table_abandon(table_id=game.pk, user=dave)
    game.refresh_from_db()
    assert game.status == "playing"

    r = api_client_for(dave).post("/api/v1/accounts/delete/", {"password": PASSWORD})

    assert r.status_code == 204, r.content
    game.refresh_from_db()
    assert game.status == "playing", "the three others play on"
    seat = Seat.objects.get(table=game, index=3)
    assert (seat.user_id, seat.display_name) == (None, "jugador eliminado")
    view = api_client_for(alice).get(f"/api/v1/tables/{game.pk}/").json()
    assert "jugador eliminado" in [p["name"] for p in view["players"]]
