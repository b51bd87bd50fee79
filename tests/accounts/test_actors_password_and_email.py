"""Issue 17 with named actors: alice forgets her password and resets it (the link works once
and expires); bob changes his e-mail and must verify it before turn notices go there."""

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

from notices import email as notice_email
from notices import services as notice_services
from tables.models import Table
from tests.conftest import PASSWORD
from tests.support.api import play_one, table
from tests.support.mail import confirm_link, mails_to, reset_key
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-pass-phrase"


# --- alice resets her password ---------------------------------------------------------


def test_alice_resets_her_password_once_with_the_mailed_link(anonymous_client, alice):
    token_before = Token.objects.create(user=alice)

    r = anonymous_client.post("/api/v1/accounts/password/reset/", {"email": "alice@example.com"})
    assert r.status_code == 200, r.content
    key = reset_key("alice@example.com")

    r = anonymous_client.post(
        "/api/v1/accounts/password/reset/key/", {"key": key, "password": NEW_PASSWORD}
    )
    assert r.status_code == 200, r.content
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not Token.objects.filter(pk=token_before.pk).exists(), "the old token is revoked"
    assert mails_to("alice@example.com")[-1].subject.startswith("Dominó")  # told of it

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
    key = reset_key("alice@example.com")

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
    (message,) = mails_to("alice@example.com")
    assert "una sola vez" in message.body
    path = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", message.body)[1]

    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    set_path = form_page.redirect_chain[-1][0] if form_page.redirect_chain else path
    # Two different passwords: the page says so (in Spanish), and nothing is changed.
    r = client.post(set_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD + "x"})
    assert r.status_code == 200
    assert "Escribe la misma contraseña las dos veces." in r.content.decode()
    alice.refresh_from_db()
    assert not alice.check_password(NEW_PASSWORD)
    r = client.post(set_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert r.status_code == 302, r.content[:400]
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    reused = Client().get(path, follow=True)
    assert 'name="password1"' not in reused.content.decode(), "the link is spent"


def test_a_reset_mail_is_in_the_players_language(anonymous_client, carol):
    anonymous_client.post("/api/v1/accounts/password/reset/", {"email": "carol@example.com"})

    (message,) = mails_to("carol@example.com")
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
    _path, key = confirm_link("bob.new@example.com")

    mail.outbox.clear()
    assert _turn_mailed(game, bob)
    assert [m.to for m in mail.outbox] == [["bob@example.com"]], "not the unverified address"

    mail.outbox.clear()
    r = APIClient().post("/api/v1/accounts/email/verify/", {"key": key})
    assert r.status_code == 200, r.content
    bob.refresh_from_db()
    assert bob.email == "bob.new@example.com"
    assert mails_to("bob@example.com"), "the old address is told of the change"
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
    assert mails_to("bob.other@example.com")
