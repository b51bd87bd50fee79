"""The accounts API's bodies refuse a wrong JSON type as the tables' do: a text field given
a number, a boolean, a list or an object is 400 ``invalid`` naming the field in ``fields``
(never read as its string, "123"), and nothing changes: no account, no token, no session,
no mail, alice's password, address and settings as they were. Cases in
``bad_input_account_types.py``."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from tests.security.bad_input_account_types import ACCOUNT_TYPE_CASES, SIGNUP

pytestmark = pytest.mark.django_db

TEXT_REQUIRED = {"es": "Tiene que ser un texto.", "en": "A string is required."}


def _snapshot(alice) -> tuple:
    alice.refresh_from_db()
    return (
        sorted(User.objects.values_list("username", flat=True)),
        Token.objects.count(),
        sorted(EmailAddress.objects.values_list("email", "verified", "primary")),
        len(mail.outbox),
        (alice.password, alice.email, alice.language, alice.pip_colour),
        alice.email_notifications,
    )


@pytest.mark.parametrize(
    ("who", "method", "path", "body", "field"),
    [case[1:] for case in ACCOUNT_TYPE_CASES],
    ids=[case[0] for case in ACCOUNT_TYPE_CASES],
)
def test_a_text_field_given_another_json_type_is_400_invalid_and_changes_nothing(
    api_client_for, alice, mallory, who, method, path, body, field
):
    client = {"alice": api_client_for(alice), "mallory": api_client_for(mallory)}.get(
        who, APIClient()
    )
    before = _snapshot(alice)

    response = getattr(client, method)(path, json.dumps(body), content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    payload = response.json()
    assert payload["code"] == "invalid", payload
    assert isinstance(payload["detail"], str) and payload["detail"]
    assert payload["fields"] == {field: [TEXT_REQUIRED["es"]]}, payload
    assert _snapshot(alice) == before
    assert "_auth_user_id" not in client.session


def test_a_number_as_a_username_makes_no_account_named_after_it(anonymous_client):
    r = anonymous_client.post(
        SIGNUP,
        {"username": 123, "email": "n@example.com", "password": "a-long-pass-phrase"},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert r.status_code == 400
    assert r.json()["fields"] == {"username": [TEXT_REQUIRED["en"]]}
    assert not User.objects.exists()


def test_a_password_of_digits_sent_as_a_json_number_signs_no_one_in(anonymous_client, alice):
    """mallory has read alice's password (all digits) somewhere and sends it as a number:
    the API reads a password only from a JSON string, so that is no sign-in (DRF alone
    read 20250101123456 as "20250101123456" and let her in)."""
    alice.set_password("20250101123456")
    alice.save()

    for path in ("/api/v1/accounts/login/", "/api/v1/accounts/token/"):
        r = anonymous_client.post(path, {"username": "alice", "password": 20250101123456})

        assert r.status_code == 400, (path, r.content[:200])
        assert r.json()["code"] == "invalid"
        assert "_auth_user_id" not in anonymous_client.session
    assert not Token.objects.filter(user=alice).exists()


def test_the_right_types_still_pass(api_client_for, alice):
    client = api_client_for(alice)

    r = client.patch("/api/v1/me/", {"username": 5, "pip_colour": "black"})

    assert r.status_code == 200, r.content  # username is read-only: ignored, as before
    alice.refresh_from_db()
    assert (alice.username, alice.pip_colour) == ("alice", "black")
