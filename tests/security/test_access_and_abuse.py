"""Who may come in and how often: invite tokens, their renewal, throttles on writes and
logins, CSRF for browser sessions, no CORS, security headers and the deploy check."""

from __future__ import annotations

import base64
import math
import re

import pytest
from django.test import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tables.services import new_invite_token
from tests.conftest import PASSWORD
from tests.support.api import create_table, join, seated_clients, table

pytestmark = pytest.mark.django_db


# --- invite tokens -----------------------------------------------------------------------


def test_invite_tokens_carry_at_least_128_random_bits():
    tokens = {new_invite_token() for _ in range(2000)}
    assert len(tokens) == 2000
    for token in list(tokens)[:50]:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128
    # every character position varies: the token is not a counter or a timestamp
    for position in range(len(next(iter(tokens)))):
        assert len({token[position] for token in tokens}) > 32
    alphabet = len({c for token in tokens for c in token})
    assert len(next(iter(tokens))) * math.log2(alphabet) >= 128


def test_the_creator_renews_a_link_and_the_old_one_stops_working(api_client_for, alice, bob):
    creator = api_client_for(alice)
    created = create_table(creator, 2, ["friend"])
    old = created["invites"][0]["token"]
    assert api_client_for(bob).get(f"/api/v1/invites/{old}/").status_code == 200

    renewed = creator.post(f"/api/v1/tables/{created['id']}/invites/1/renew/")

    assert renewed.status_code == 200, renewed.json()
    new = renewed.json()["invites"][0]["token"]
    assert new != old
    for path in (f"/api/v1/invites/{old}/", f"/api/v1/invites/{old}/join/"):
        method = "get" if not path.endswith("join/") else "post"
        reply = getattr(api_client_for(bob), method)(path)
        assert (reply.status_code, reply.json()["code"]) == (404, "invite_not_found")
    joined = join(api_client_for(bob), new)
    assert joined["status"] == "playing"


def test_only_the_creator_may_renew(api_client_for, alice, bob, mallory):
    """bob, seated at alice's table, knows it exists: he got the stranger's bare 404 and
    now a 403 that says only its creator renews links; mallory, not seated, still learns
    nothing (404 ``not_found``). Neither changes the table or its links."""
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    seated = join(api_client_for(bob), created["invites"][0]["token"])
    renew = f"/api/v1/tables/{created['id']}/invites/2/renew/"

    reply = api_client_for(bob).post(renew)
    assert reply.status_code == 403
    assert reply.json() == {
        "code": "creator_only",
        "detail": "Solo quien creó la mesa puede renovar sus enlaces de invitación.",
    }
    reply = api_client_for(mallory).post(renew)
    assert (reply.status_code, reply.json()) == (
        404,
        {"code": "not_found", "detail": "No encontrado."},
    )

    token = created["invites"][1]["token"]
    assert api_client_for(mallory).get(f"/api/v1/invites/{token}/").status_code == 200
    assert table(api_client_for(alice), created["id"])["version"] == seated["version"]
    reply = api_client_for(alice).post(renew)  # the creator still may
    assert reply.status_code == 200 and reply.json()["invites"][0]["token"] != token


def test_a_seated_player_is_told_in_english_that_only_the_creator_renews(
    api_client_for, alice, bob
):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    path = f"/api/v1/tables/{created['id']}/invites/2/renew/"
    reply = api_client_for(bob).post(path, HTTP_ACCEPT_LANGUAGE="en")
    assert reply.json()["detail"] == "Only the table's creator can renew its invite links."


def test_a_started_table_has_no_links_to_renew(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    reply = clients[0].post(f"/api/v1/tables/{table_id}/invites/1/renew/")
    assert reply.status_code in (404, 409)
    assert reply.json()["code"] in ("not_found", "table_not_open")


# --- throttles ---------------------------------------------------------------------------


@pytest.fixture
def tight_rates(monkeypatch, settings):
    """Rates of 3 writes per scope. DRF reads DEFAULT_THROTTLE_RATES into a class attribute
    at import time, so the override is also put there for the test's duration."""
    from django.conf import settings as django_settings

    rates = {**django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}
    rates.update({"moves": "3/min", "tables": "3/min", "login": "3/min"})
    rest = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    with override_settings(REST_FRAMEWORK=rest):
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
        yield rates


def test_moves_are_throttled(tight_rates, api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat = table(clients[0], table_id)["turn_seat"]
    client = clients[seat]
    bad = {"tile": "9-9", "version": 0}
    for _ in range(3):
        assert client.post(f"/api/v1/tables/{table_id}/moves/", bad).status_code == 400
    version = table(client, table_id)["version"]

    reply = client.post(f"/api/v1/tables/{table_id}/moves/", bad)

    assert reply.status_code == 429
    assert reply.json()["code"] == "throttled"
    assert 0 < reply.json()["retry_after"] <= 60  # a 3/min window
    assert int(reply.headers["Retry-After"]) == reply.json()["retry_after"]  # one number
    assert table(client, table_id)["version"] == version
    # reads are never counted: polling does not use up the budget to move
    for _ in range(10):
        assert client.get(f"/api/v1/tables/{table_id}/").status_code == 200


def test_table_creation_is_throttled(tight_rates, api_client_for, alice):
    client = api_client_for(alice)
    for _ in range(3):
        create_table(client, 2, ["nino"])
    reply = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]})
    assert (reply.status_code, reply.json()["code"]) == (429, "throttled")


def test_token_guessing_is_throttled(tight_rates, alice):
    client = APIClient()
    for _ in range(3):
        reply = client.post("/api/v1/accounts/token/", {"username": "alice", "password": "no"})
        assert reply.status_code == 400
    reply = client.post("/api/v1/accounts/token/", {"username": "alice", "password": PASSWORD})
    assert (reply.status_code, reply.json()["code"]) == (429, "throttled")
    assert "token" not in reply.json()


# --- CSRF, CORS, headers ---------------------------------------------------------------


def test_a_browser_session_write_needs_the_csrf_token(api_client_for, alice, bob):
    table_id, _clients = seated_clients(api_client_for, [alice, bob])
    browser = APIClient(enforce_csrf_checks=True)
    assert browser.login(username="alice", password=PASSWORD)

    for path, body in (
        ("/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]}),
        (f"/api/v1/tables/{table_id}/moves/", {"tile": "6-6", "version": 1}),
        (f"/api/v1/tables/{table_id}/abandon/", {}),
        ("/api/v1/accounts/logout/", {}),
    ):
        reply = browser.post(path, body, format="json")
        assert reply.status_code == 403, (path, reply.content)
        assert reply.json()["code"] == "csrf_failed"
    reply = browser.patch("/api/v1/me/", {"pip_colour": "black"}, format="json")
    assert (reply.status_code, reply.json()["code"]) == (403, "csrf_failed")
    assert table(browser, table_id)["status"] == "playing"  # reads need no token

    page = browser.get("/")  # any page sets the CSRF cookie
    token = browser.cookies["csrftoken"].value if "csrftoken" in browser.cookies else None
    if token is None:
        token = page.cookies["csrftoken"].value
    reply = browser.post(
        "/api/v1/tables/",
        {"seats": 2, "target": 50, "others": ["nino"]},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert reply.status_code == 201, reply.content


def test_token_clients_need_no_csrf_token(api_client_for, alice):
    client = api_client_for(alice)
    client.handler.enforce_csrf_checks = True
    reply = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]})
    assert reply.status_code == 201


def test_no_cors(api_client_for, alice):
    client = api_client_for(alice)
    origin = {"HTTP_ORIGIN": "https://evil.example"}
    answers = [
        client.get("/api/v1/tables/", **origin),
        client.get("/api/v1/me/", **origin),
        client.options("/api/v1/tables/", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST", **origin),
        APIClient().post("/api/v1/accounts/token/", {}, **origin),
    ]
    for reply in answers:
        assert not any(h.lower().startswith("access-control-") for h in reply.headers), (
            reply.headers
        )


def test_security_headers(api_client_for, alice):
    reply = api_client_for(alice).get("/api/v1/tables/")
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "same-origin"
    assert reply.headers["Content-Type"].startswith("application/json")
    page = APIClient().get("/accounts/login/")
    assert page.headers["X-Frame-Options"] == "DENY"


def test_unauthenticated_and_bad_tokens_are_refused(alice):
    anonymous = APIClient()
    reply = anonymous.get("/api/v1/tables/")
    assert (reply.status_code, reply.json()["code"]) == (401, "not_authenticated")
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    reply = forged.get("/api/v1/tables/")
    assert (reply.status_code, reply.json()["code"]) == (401, "authentication_failed")
