""" "Mis mesas" tells an unverified account that turn e-mails will not reach it, with the
button that mails the link: before, only Ajustes said so, and a player who never opened
Ajustes waited for e-mails that never came. The button comes back to "Mis mesas"."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from tests.support.mail import CONFIRM_LINK, mails_to
from tests.support.pages import signed_in_client

pytestmark = pytest.mark.django_db


def _unverify(user):
    EmailAddress.objects.filter(user=user).update(verified=False)
    return user


def _button_form(page: str) -> str:
    found = re.search(r'<form method="post" action="/accounts/email/".*?</form>', page, re.S)
    assert found, page
    return found[0]


def test_an_unverified_player_is_told_on_my_tables_and_sends_the_link_from_there(alice):
    client = signed_in_client(_unverify(alice))
    page = client.get("/").content.decode()
    assert "Tu correo está sin verificar" in page
    assert (
        "Los avisos de turno no llegarán a alice@example.com hasta que sigas el enlace que te "
        "mandamos."
    ) in page
    form = _button_form(page)
    assert 'name="action_send"' in form and "Enviar el enlace de verificación" in form
    assert 'name="email" value="alice@example.com"' in form and 'name="next" value="/"' in form

    sent = client.post(
        "/accounts/email/", {"action_send": "", "email": "alice@example.com", "next": "/"}
    )
    assert sent.status_code == 302 and sent["Location"] == "/"
    (message,) = mails_to("alice@example.com")
    assert CONFIRM_LINK.search(message.body)
    home = client.get("/").content.decode()
    assert "Te hemos enviado el enlace de verificación a alice@example.com." in home


def test_a_verified_player_sees_no_such_notice(bob):
    page = signed_in_client(bob).get("/").content.decode()
    assert "sin verificar" not in page and "Enviar el enlace de verificación" not in page


def test_an_account_without_an_address_is_told_to_add_one(dave):
    dave.email = ""
    dave.save(update_fields=["email"])
    EmailAddress.objects.filter(user=dave).delete()
    page = signed_in_client(dave).get("/").content.decode()
    assert "Tu cuenta no tiene correo" in page and 'href="/accounts/email/"' in page


def test_in_english(carol):
    page = signed_in_client(_unverify(carol)).get("/").content.decode()
    assert "Your e-mail address is not verified" in page
    assert "Send the verification link" in page


def test_a_foreign_next_is_not_followed(alice):
    client = signed_in_client(_unverify(alice))
    sent = client.post(
        "/accounts/email/",
        {"action_send": "", "email": "alice@example.com", "next": "https://evil.example/"},
    )
    assert sent["Location"] == "/accounts/email/"
    assert len(mail.outbox) == 1
