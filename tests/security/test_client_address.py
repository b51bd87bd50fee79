"""Anonymous rate limits count per client address, and a client cannot choose its address.

Issue 13, finding 2: with ``NUM_PROXIES`` unset, DRF took the client address from the
``X-Forwarded-For`` header as sent, so a new made-up address per request skipped every
anonymous limit (60 wrong passwords on the token endpoint, 25 sign-ups, 30 browser
logins, no 429). The address is now ``core.client_address.client_address``: the socket's
address by default (``NUM_PROXIES=0``), or the entry the configured number of proxies
appended, for every anonymous limit (the API's throttles and the browser pages).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _spoofed(index: int) -> dict:
    return {"HTTP_X_FORWARDED_FOR": f"203.0.113.{index % 250}, 198.51.100.{index % 7}"}


def _proxies(count: int):
    return override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": count})


def test_finding_2_rotating_forwarded_for_does_not_skip_the_token_limit(alice):
    # A name per guess: one name alone is locked after 5 (issue 13, finding 3); this
    # counts the per-address limit.
    client = APIClient()
    statuses = [
        client.post(
            "/api/v1/accounts/token/", {"username": f"user{i}", "password": "wrong"}, **_spoofed(i)
        ).status_code
        for i in range(60)
    ]
    assert statuses[:20] == [400] * 20  # login: 20/min
    assert statuses[20:] == [429] * 40


def test_finding_2_rotating_forwarded_for_does_not_skip_the_signup_limit():
    client = APIClient()
    statuses = [
        client.post(
            "/api/v1/accounts/signup/",
            # issue 17: an e-mail is required for new accounts.
            {
                "username": f"spoofer{i}",
                "password": "correct-horse-battery-9",
                "email": f"spoofer{i}@example.com",
            },
            **_spoofed(i),
        ).status_code
        for i in range(25)
    ]
    assert statuses[:20] == [201] * 20  # signup: 20/hour
    assert statuses[20:] == [429] * 5


def test_finding_2_rotating_forwarded_for_does_not_skip_the_browser_login_limit(client, alice):
    statuses = [
        client.post(
            "/accounts/login/", {"username": "alice", "password": "wrong"}, **_spoofed(i)
        ).status_code
        for i in range(30)
    ]
    assert 429 not in statuses[:20]
    assert statuses[20:] == [429] * 10


def test_the_default_is_the_socket_address():
    from core.client_address import client_address

    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == 0
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert client_address(request) == "192.0.2.1"


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.9, 198.51.100.1", "192.0.2.1"),
        (1, "198.51.100.1", "198.51.100.1"),
        (1, "203.0.113.9, 198.51.100.1", "198.51.100.1"),  # the client's own entry is ignored
        (1, " 203.0.113.9 ,198.51.100.1 ", "198.51.100.1"),
        (2, "203.0.113.9, 198.51.100.1, 10.0.0.2", "198.51.100.1"),
        (2, "198.51.100.1", "198.51.100.1"),  # fewer entries than proxies: the first one
        (1, None, "192.0.2.1"),  # no header: the socket
        (1, "", "192.0.2.1"),
        (1, " , ", "192.0.2.1"),
    ],
)
def test_the_header_is_trusted_for_the_configured_proxies_only(proxies, forwarded, expected):
    from core.client_address import client_address

    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", **headers)
    with _proxies(proxies):
        assert client_address(request) == expected


def test_behind_one_proxy_a_client_is_counted_by_the_address_the_proxy_saw(alice):
    """The proxy appends the address it saw: a made-up entry before it changes nothing,
    and two real clients behind the same proxy have a bucket each."""
    client = APIClient()
    body = {"username": "alice", "password": "wrong"}
    with _proxies(1):
        statuses = [
            client.post(
                "/api/v1/accounts/token/",
                body,
                HTTP_X_FORWARDED_FOR=f"203.0.113.{i}, 198.51.100.7",
            ).status_code
            for i in range(21)
        ]
        # Another name: alice herself is locked whatever the address (issue 13, finding 3).
        other = client.post(
            "/api/v1/accounts/token/",
            {"username": "bob", "password": "wrong"},
            HTTP_X_FORWARDED_FOR="198.51.100.8",
        ).status_code
    assert statuses[-1] == 429
    assert other == 400


def test_a_negative_proxy_count_stops_the_process():
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--settings=config.settings.local"],
        cwd=root,
        env={**os.environ, "NUM_PROXIES": "-1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "NUM_PROXIES" in result.stderr
