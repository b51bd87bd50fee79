import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import PASSWORD

URL = "/api/v1/accounts/login/"
pytestmark = pytest.mark.django_db


def test_it_starts_a_session_and_returns_the_user(anonymous_client, alice):
    r = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD})

    assert r.status_code == 200, r.content
    assert r.json()["username"] == "alice"
    assert "password" not in r.json()
    assert anonymous_client.session["_auth_user_id"] == str(alice.pk)
    assert anonymous_client.get("/api/v1/me/").json()["username"] == "alice"


def test_it_rejects_a_wrong_password(anonymous_client, alice):
    r = anonymous_client.post(URL, {"username": "alice", "password": "nope"})

    assert r.status_code == 400
    assert r.json()["code"] == "invalid_credentials"
    assert "_auth_user_id" not in anonymous_client.session


def test_it_rejects_an_inactive_user(anonymous_client, alice):
    alice.is_active = False
    alice.save()

    r = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD})

    assert r.status_code == 400
    assert r.json()["code"] == "invalid_credentials"


def test_it_requires_the_csrf_token(alice):
    client = APIClient(enforce_csrf_checks=True)

    r = client.post(URL, {"username": "alice", "password": PASSWORD})

    assert r.status_code == 403
    assert r.json()["code"] == "csrf_failed"
    assert r.json()["detail"].startswith("Falta la comprobación CSRF")  # Spanish first
    assert r.json()["reason"].startswith("CSRF Failed")  # DRF's sentence, for developers
    assert "_auth_user_id" not in client.session
    english = client.post(URL, {"username": "alice"}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"].startswith("This session's CSRF check is missing")


def test_it_throttles_guessing(anonymous_client, alice):
    for _ in range(20):
        anonymous_client.post(URL, {"username": "alice", "password": "guess"})

    r = anonymous_client.post(URL, {"username": "alice", "password": PASSWORD})

    assert r.status_code == 429
    assert r.json()["code"] == "throttled"
    assert "_auth_user_id" not in anonymous_client.session


def test_a_password_with_edge_spaces_is_read_as_typed(anonymous_client, alice):
    # The web forms keep a password's edge spaces (strip=False); the API must too, or a
    # password chosen on the web could never be typed into the app.
    alice.set_password("  dos espacios delante y uno detrás ")
    alice.save()

    trimmed = anonymous_client.post(
        URL, {"username": "alice", "password": "dos espacios delante y uno detrás"}
    )
    assert trimmed.status_code == 400
    assert trimmed.json()["code"] == "invalid_credentials"

    r = anonymous_client.post(
        URL, {"username": "alice", "password": "  dos espacios delante y uno detrás "}
    )
    assert r.status_code == 200, r.content


def test_a_password_chosen_in_the_app_with_edge_spaces_works_on_the_web(anonymous_client):
    password = " una clave con espacios 91 "
    r = anonymous_client.post(
        "/api/v1/accounts/signup/",
        {"username": "erin", "email": "erin@example.com", "password": password},
        format="json",
    )
    assert r.status_code == 201, r.content

    web = Client()
    r = web.post("/accounts/login/", {"login": "erin", "password": password})

    assert r.status_code == 302, r.content
    assert web.session["_auth_user_id"]
