import pytest
from rest_framework.authtoken.models import Token

from accounts.models import User

URL = "/api/v1/accounts/signup/"
pytestmark = pytest.mark.django_db


def test_it_creates_the_user_and_returns_a_token(anonymous_client):
    r = anonymous_client.post(
        URL, {"username": "zoe", "password": "a-long-pass-phrase", "email": "z@example.com"}
    )

    assert r.status_code == 201, r.content
    user = User.objects.get(username="zoe")
    assert user.email == "z@example.com"
    assert user.check_password("a-long-pass-phrase")
    assert user.email_notifications is True
    assert user.pip_colour == "coloured"
    assert r.json() == {"username": "zoe", "token": Token.objects.get(user=user).key}


def test_it_takes_the_language_from_accept_language(anonymous_client):
    r = anonymous_client.post(
        URL,
        {"username": "eve", "password": "a-long-pass-phrase", "email": "eve@example.com"},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert r.status_code == 201, r.content
    assert User.objects.get(username="eve").language == "en"


def test_it_rejects_a_weak_password(anonymous_client):
    r = anonymous_client.post(URL, {"username": "zoe", "password": "123", "email": "z@x.org"})

    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "invalid"
    assert "password" in body["fields"]
    assert not User.objects.filter(username="zoe").exists()


def test_it_rejects_a_taken_username_whatever_the_case(anonymous_client, alice):
    r = anonymous_client.post(
        URL, {"username": "ALICE", "password": "a-long-pass-phrase", "email": "a2@x.org"}
    )

    assert r.status_code == 400
    assert r.json()["code"] == "invalid"
    assert r.json()["fields"]["username"]
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_it_rejects_missing_fields(anonymous_client):
    # issue 17: the e-mail is required for new accounts (it was optional before).
    r = anonymous_client.post(URL, {})

    assert r.status_code == 400
    assert set(r.json()["fields"]) == {"username", "email", "password"}
    assert User.objects.count() == 0


def test_it_requires_an_email(anonymous_client):
    r = anonymous_client.post(URL, {"username": "zoe", "password": "a-long-pass-phrase"})

    assert r.status_code == 400
    assert r.json()["code"] == "invalid"
    assert list(r.json()["fields"]) == ["email"]
    assert not User.objects.filter(username="zoe").exists()


def test_it_throttles_signups(anonymous_client, settings):
    for i in range(20):
        r = anonymous_client.post(
            URL, {"username": f"u{i}", "password": "a-long-pass-phrase", "email": f"u{i}@x.org"}
        )
        assert r.status_code == 201, r.content

    r = anonymous_client.post(
        URL, {"username": "u20", "password": "a-long-pass-phrase", "email": "u20@x.org"}
    )

    assert r.status_code == 429
    assert r.json()["code"] == "throttled"
    assert r.json()["retry_after"] > 0
    assert "Retry-After" in r.headers
    assert not User.objects.filter(username="u20").exists()
