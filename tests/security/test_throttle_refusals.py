"""A request the rate limits must not count: a method the path does not answer gets its
405, uncounted, before and past the limit (DRF checks the limits before it looks for the
handler: core.throttling)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.support.api import create_table
from tests.support.signup import API, signup_page

WRONG_METHODS = ("put", "patch", "delete")


@pytest.fixture
def three_a_minute(monkeypatch):
    """The "tables" and "signup" scopes at 3 writes a minute."""
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "tables": "3/min", "signup": "3/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


def test_wrong_methods_do_not_use_up_the_tables_limit(three_a_minute, api_client_for, alice):
    client = api_client_for(alice)
    for _ in range(3):
        for method in WRONG_METHODS:
            reply = getattr(client, method)("/api/v1/tables/1/rematch/")
            assert (reply.status_code, reply.json()["code"]) == (405, "method_not_allowed")

    for _ in range(3):
        create_table(client, 2, ["nino"])  # the whole budget is still there

    reply = client.put("/api/v1/tables/1/rematch/")  # past the limit: still the 405
    assert (reply.status_code, reply.json()["code"]) == (405, "method_not_allowed")
    reply = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]})
    assert (reply.status_code, reply.json()["code"]) == (429, "throttled")


def test_wrong_methods_do_not_use_up_the_signup_limit_of_the_page(three_a_minute, client, db):
    api = APIClient()
    for method in WRONG_METHODS * 2:
        reply = getattr(api, method)(API, {"username": "x"})
        assert (reply.status_code, reply.json()["code"]) == (405, "method_not_allowed")

    reply = signup_page(client, "newbie")

    assert reply.status_code == 302  # signed up, not "Demasiadas cuentas nuevas desde aquí"


def test_the_signup_page_still_counts_in_the_shared_limit(three_a_minute, client, db):
    for name in ("ana1", "ana2", "ana3"):
        assert signup_page(Client(), name, email=f"{name}@example.com").status_code == 302
    reply = signup_page(client, "newbie")
    assert reply.status_code == 429
    assert "Demasiadas cuentas nuevas desde aquí" in reply.content.decode()
