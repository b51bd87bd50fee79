import pytest
from rest_framework.authtoken.models import Token

from tests.conftest import PASSWORD

URL = "/api/v1/accounts/token/"
pytestmark = pytest.mark.django_db


def test_it_returns_the_users_token(anonymous_client, alice):
    r = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD})

    assert r.status_code == 200, r.content
    assert r.json() == {"token": Token.objects.get(user=alice).key}


def test_it_returns_the_same_token_twice(anonymous_client, alice):
    first = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD}).json()
    second = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD}).json()

    assert first == second
    assert Token.objects.filter(user=alice).count() == 1


def test_it_rejects_a_wrong_password(anonymous_client, alice):
    r = anonymous_client.post(URL, {"username": "alice", "password": "wrong"})

    assert r.status_code == 400
    assert r.json()["code"] == "invalid_credentials"
    assert not Token.objects.filter(user=alice).exists()


def test_the_token_authenticates(anonymous_client, alice):
    token = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD}).json()["token"]

    r = anonymous_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token}")

    assert r.json()["username"] == "alice"
