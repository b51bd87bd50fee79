"""Issue 17 with named actors: accounts a player can rely on for months.

alice forgets her password and resets it (the link works once and expires); bob changes
his e-mail and must verify it before turn notices go there; carol opens an invite signed
out, signs up, verifies and sits; dave deletes his account in the middle of a 4-seat match;
mallory cannot learn whether an e-mail has an account.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from notices import email as notice_email
from notices import services as notice_services
from tables import services as table_services
from tables.models import Seat, Table
from tests.conftest import PASSWORD
from tests.support.api import play_one, replay, table
from tests.web.conftest import seat_friends

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-pass-phrase"
RESET_LINK = re.compile(r"https?://[^/\s]+/accounts/password/reset/key/([^/\s]+)/")
CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/([^/\s]+)/)")


def _mails_to(address: str) -> list:
    return [message for message in mail.outbox if address in message.to]


def _reset_key(address: str) -> str:
    (message,) = _mails_to(address)
    return RESET_LINK.search(message.body).group(1)


def _confirm_link(address: str) -> tuple[str, str]:
    """The path and key of the last verification link mailed to ``address``."""
    found = CONFIRM_LINK.search(_mails_to(address)[-1].body)
    assert found, _mails_to(address)[-1].body
    return found.group(1), found.group(2)


# --- alice resets her password ---------------------------------------------------------


def test_alice_resets_her_password_once_with_the_mailed_link(anonymous_client, alice):
    token_before = Token.objects.create(user=alice)

    r = anonymous_client.post("/api/v1/accounts/password/reset/", {"email": "alice@example.com"})
    assert r.status_code == 200, r.content
    key = _reset_key("alice@example.com")

    r = anonymous_client.post(
        "/api/v1/accounts/password/reset/key/", {"key": key, "password": NEW_PASSWORD}
    )
    assert r.status_code == 200, r.content
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not Token.objects.filter(pk=token_before.pk).exists(), "the old token is revoked"
    assert _mails_to("alice@example.com")[-1].subject.startswith("Dominó")  # told of it

    again = anonymous_client.post(
        "/api/v1/accounts/password/reset/key/", {"key": key, "password": "yet-another-phrase-9"}
    )
    assert again.status_code == 400
    assert again.json()["code"] == "invalid"
    assert list(again.json()["fields"]) == ["key"]
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD), "a used link changes nothing"
    r = anonymous_client.post(
        "/api/v1/accounts/token/", {"username": "alice@example.com", "password": NEW_PASSWORD}
    )
    assert r.status_code == 200, "she signs in by e-mail with the new password"


def test_alice_reset_link_expires(anonymous_client, alice):
    anonymous_client.post("/api/v1/accounts/password/reset/", {"email": "alice@example.com"})
    key = _reset_key("alice@example.com")

    later = timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    with time_machine.travel(later, tick=False):
        r = anonymous_client.post(
            "/api/v1/accounts/password/reset/key/", {"key": key, "password": NEW_PASSWORD}
        )

    assert r.status_code == 400
    assert r.json()["fields"]["key"]
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_alice_resets_on_the_pages_and_the_link_works_once(client, alice):
    r = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert r.status_code == 302
    (message,) = _mails_to("alice@example.com")
    assert "una sola vez" in message.body
    path = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", message.body)[1]

    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    set_path = form_page.redirect_chain[-1][0] if form_page.redirect_chain else path
    r = client.post(set_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert r.status_code == 302, r.content[:400]
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    reused = Client().get(path, follow=True)
    assert 'name="password1"' not in reused.content.decode(), "the link is spent"


def test_a_reset_mail_is_in_the_players_language(anonymous_client, carol):
    anonymous_client.post("/api/v1/accounts/password/reset/", {"email": "carol@example.com"})

    (message,) = _mails_to("carol@example.com")
    assert "only once" in message.body, message.body


# --- bob changes his e-mail ------------------------------------------------------------


def _bobs_turn(alice, bob) -> Table:
    """A two-seat table of alice and bob, played on until it is bob's turn."""
    game = seat_friends(alice, [bob])
    clients = {0: APIClient(), 1: APIClient()}
    clients[0].force_authenticate(alice)
    clients[1].force_authenticate(bob)
    rng = random.Random(7)
    while True:
        game.refresh_from_db()
        if game.turn_seat == 1:
            return game
        state = table(clients[game.turn_seat], game.pk)
        assert play_one(clients[game.turn_seat], state, rng).status_code == 200


def _turn_mailed(game, user, hours_later: int = 0) -> bool:
    """Bob's turn notice is written and its e-mail's delay has passed (``hours_later``
    more: past the 6 hours between two turn e-mails): was it mailed?"""
    notice_services.record_turn(table_id=game.pk, version=game.version)
    due = timezone.now() + timedelta(minutes=16, hours=hours_later)
    return notice_email.deliver(user.pk, due) == 1


def test_bob_changes_his_email_and_notices_wait_for_the_verification(
    api_client_for, alice, bob, settings
):
    settings.PRESENCE_SECONDS = 0  # bob is not at the table when his turns begin
    game = _bobs_turn(alice, bob)
    client = api_client_for(bob)

    r = client.post("/api/v1/accounts/email/", {"email": "bob.new@example.com"})
    assert r.status_code == 202, r.content
    assert r.json()["email"] == "bob@example.com"
    pending = [a for a in r.json()["addresses"] if a["email"] == "bob.new@example.com"]
    assert pending == [{"email": "bob.new@example.com", "verified": False, "primary": False}]
    _path, key = _confirm_link("bob.new@example.com")

    mail.outbox.clear()
    assert _turn_mailed(game, bob)
    assert [m.to for m in mail.outbox] == [["bob@example.com"]], "not the unverified address"

    mail.outbox.clear()
    r = APIClient().post("/api/v1/accounts/email/verify/", {"key": key})
    assert r.status_code == 200, r.content
    bob.refresh_from_db()
    assert bob.email == "bob.new@example.com"
    assert _mails_to("bob@example.com"), "the old address is told of the change"
    assert not EmailAddress.objects.filter(user=bob, email="bob@example.com").exists()

    mail.outbox.clear()
    later = _bobs_turn(alice, bob)  # each turn's notice is delivered once: a new turn
    assert _turn_mailed(later, bob, hours_later=7)
    assert [m.to for m in mail.outbox] == [["bob.new@example.com"]]


def test_an_unverified_address_gets_no_notice(alice, bob, settings):
    settings.PRESENCE_SECONDS = 0
    game = _bobs_turn(alice, bob)
    EmailAddress.objects.filter(user=bob).update(verified=False)

    mail.outbox.clear()
    assert _turn_mailed(game, bob) is False
    assert mail.outbox == []


def test_patching_the_email_on_me_starts_the_same_change(api_client_for, bob):
    r = api_client_for(bob).patch("/api/v1/me/", {"email": "bob.other@example.com"})

    assert r.status_code == 200, r.content
    assert r.json()["email"] == "bob@example.com", "the old address stays until verified"
    assert _mails_to("bob.other@example.com")


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

    path, _key = _confirm_link("carol@example.com")
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
    path, _key = _confirm_link("carol@example.com")

    phone = Client()
    r = phone.post(path)
    assert r.status_code == 302
    assert EmailAddress.objects.get(email="carol@example.com").verified
    r = phone.post("/accounts/login/", {"login": "carol@example.com", "password": NEW_PASSWORD})
    assert r.status_code == 302


# --- dave deletes his account mid-match ------------------------------------------------


def test_dave_deletes_his_account_in_the_middle_of_a_four_seat_match(
    api_client_for, django_capture_on_commit_callbacks, alice, bob, carol, dave, settings
):
    settings.PRESENCE_SECONDS = 0  # nobody is at the table: everyone is told by e-mail
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
    to_alice = _mails_to("alice@example.com")
    assert len(to_alice) == 1 and "/accounts/confirm-email/" not in to_alice[0].body
    assert "/accounts/confirm-email/" in _mails_to("nobody@example.com")[0].body
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
    _path, key = _confirm_link("olga@example.com")
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
