"""``GET /healthz`` for the load balancer: database, cache and broker, answered before any
other middleware (no host check, HTTPS redirect, session, language or rate limit), and
nothing in it beyond the name of the check that failed (core.health)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import override_settings

import core.health

pytestmark = pytest.mark.django_db


def test_all_up(client):
    reply = client.get("/healthz")
    assert reply.status_code == 200
    assert reply.json() == {"status": "ok"}
    assert "no-store" in reply["Cache-Control"]
    assert not reply.cookies


def test_it_answers_whatever_host_and_scheme_the_balancer_uses(client):
    with override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["domino.example.com"]):
        reply = client.get("/healthz", HTTP_HOST="10.0.3.7:8000")
    assert (reply.status_code, reply.json()) == (200, {"status": "ok"})


def test_it_is_not_rate_limited_and_keeps_no_session(client, django_assert_max_num_queries):
    for _ in range(60):
        assert client.get("/healthz").status_code == 200
    with django_assert_max_num_queries(1):  # SELECT 1, no session or user lookup
        reply = client.get("/healthz", HTTP_COOKIE="sessionid=made-up")
    assert reply.status_code == 200
    assert "Set-Cookie" not in reply.headers


@pytest.mark.parametrize("check", ["database", "cache", "broker"])
def test_a_failing_check_is_503_naming_only_the_check(client, monkeypatch, caplog, check):
    def broken():
        raise OperationalError('could not connect to server at "db.internal" (10.0.0.9)')

    monkeypatch.setitem(core.health.CHECKS, check, broken)
    reply = client.get("/healthz")

    assert reply.status_code == 503
    assert reply.json() == {"status": "unavailable", "failed": [check]}
    assert b"db.internal" not in reply.content and b"10.0.0.9" not in reply.content
    assert "db.internal" in caplog.text  # the detail goes to the log, not the answer


def test_a_check_answering_false_counts_as_failed(client, monkeypatch):
    monkeypatch.setitem(core.health.CHECKS, "cache", lambda: False)
    reply = client.get("/healthz")
    assert (reply.status_code, reply.json()) == (
        503,
        {"status": "unavailable", "failed": ["cache"]},
    )


def test_other_methods_are_refused(client):
    reply = client.post("/healthz")
    assert reply.status_code == 405
    assert client.head("/healthz").status_code == 200


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the probe goes


def test_a_cache_that_refuses_connections_is_503_cache(client):
    unreachable = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
        }
    }
    with override_settings(CACHES=unreachable):
        reply = client.get("/healthz")
    assert (reply.status_code, reply.json()) == (
        503,
        {"status": "unavailable", "failed": ["cache"]},
    )
