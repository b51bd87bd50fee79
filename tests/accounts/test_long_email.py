"""An e-mail address longer than the columns hold (254 characters) is refused on every
path with a sentence, as the sign-up API refuses it (400): the sign-up page used to cut a
307-character address to 254 characters, without its "@", and send a verification link
there; the address page failed at the database (500 on PostgreSQL)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from accounts.models import User
from tests.support.signup import signup_api, signup_page

pytestmark = pytest.mark.django_db

#: 307 characters, an "@" at 251: cut at 254 it still has one; this one does not.
LONG = "a" * 260 + "@" + "b" * 42 + ".com"
TOO_LONG_ES = "La dirección de correo puede tener como mucho 254 caracteres (esta tiene 307)."


def test_the_length():
    assert len(LONG) == 307 and LONG.index("@") > 254


def test_the_page_refuses_it(client):
    answer = signup_page(client, "newbie", email=LONG)
    assert answer.status_code == 400
    assert answer.context["form"].errors["email"] == [TOO_LONG_ES]
    assert 'maxlength="254"' in answer.content.decode()
    assert not User.objects.filter(username="newbie").exists()
    assert not EmailAddress.objects.exists()
    assert mail.outbox == []


def test_the_page_in_english(client):
    answer = signup_page(client, "newbie", email=LONG, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.context["form"].errors["email"] == [
        "An e-mail address can be at most 254 characters long (this one has 307)."
    ]


def test_the_api_refuses_it(anonymous_client):
    answer = signup_api(anonymous_client, "newbie", email=LONG)
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid" and "email" in answer.json()["fields"]
    assert not User.objects.filter(username="newbie").exists()
    assert mail.outbox == []


def test_an_address_of_254_characters_is_taken(client):
    address = "a" * 240 + "@example.com"
    address = "a" * (254 - len(address)) + address
    assert len(address) == 254
    answer = signup_page(client, "newbie", email=address)
    assert answer.status_code == 302
    assert User.objects.get(username="newbie").email == address
    assert [message.to for message in mail.outbox] == [[address]]


def test_the_address_page_refuses_it(client, alice):
    client.force_login(alice)
    answer = client.post("/accounts/email/", {"action_add": "", "email": LONG})
    assert answer.status_code in (200, 400)
    assert TOO_LONG_ES in answer.content.decode()
    assert list(EmailAddress.objects.values_list("email", flat=True)) == [alice.email]
    assert mail.outbox == []
