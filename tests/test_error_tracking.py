"""Error reports (Sentry, ``SENTRY_DSN``) never carry a hand, a stock, a seed, a snapshot,
a token, a password, a cookie or a request body (config.error_tracking).

The events are built by sentry-sdk itself, with its Django and Celery integrations, from
real failing requests and tasks; a transport keeps them in memory instead of sending them.
"""

from __future__ import annotations

import json
import logging
import re

import pytest
import sentry_sdk
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from sentry_sdk.transport import Transport

from config.error_tracking import init_error_tracking, scrub_breadcrumb, scrub_event
from tables.models import Table
from tests.conftest import PASSWORD
from tests.support.api import seated_clients, table

pytestmark = pytest.mark.django_db

DSN = "https://public@sentry.example.invalid/1"
TILE = re.compile(r"\b\d-\d\b")


class KeepingTransport(Transport):
    """A sentry-sdk transport that keeps each event (as the JSON it would send)."""

    def __init__(self, options=None):
        super().__init__(options)
        self.events: list[dict] = []

    def capture_envelope(self, envelope) -> None:
        for item in envelope.items:
            if item.type == "event":
                self.events.append(json.loads(item.payload.get_bytes()))


def _forget_breadcrumbs() -> None:
    for scope in (sentry_sdk.get_isolation_scope(), sentry_sdk.get_current_scope()):
        scope.clear_breadcrumbs()


@pytest.fixture
def reset_sentry():
    """Each test starts and ends with no Sentry client and no breadcrumbs kept by the
    process-wide scopes."""
    _forget_breadcrumbs()
    yield
    sentry_sdk.get_client().close()
    sentry_sdk.get_global_scope().set_client(None)
    _forget_breadcrumbs()


@pytest.fixture
def sentry_events(reset_sentry):
    """Sentry as production starts it (config.error_tracking), keeping events here."""
    transport = KeepingTransport()
    init_error_tracking(DSN, environment="test", transport=transport)
    return transport.events


@pytest.fixture
def permissive_sentry_events(reset_sentry):
    """Sentry told to collect everything it can (local variables, bodies, personal data,
    SQL parameters), with only our before_send/before_breadcrumb between it and the wire:
    the scrubbers alone must be enough."""
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    transport = KeepingTransport()
    sentry_sdk.init(
        dsn=DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=True,
        include_local_variables=True,
        max_request_body_size="always",
        before_send=scrub_event,
        before_breadcrumb=scrub_breadcrumb,
        transport=transport,
        _experiments={"record_sql_params": True},
    )
    return transport.events


def _secrets(table_id: int) -> list[str]:
    """What must never appear: the running hand's seed and snapshot, the API tokens, the
    password."""
    snapshot = Table.objects.get(pk=table_id).state
    hand = snapshot["hands"][-1]
    return [
        hand["seed"],
        json.dumps(hand["stock"]),
        json.dumps(hand["holdings"][0]),
        json.dumps(hand["holdings"][1]),
        *Token.objects.values_list("key", flat=True),
        PASSWORD,
        "sessionid-value-1",
        "csrftoken-value-1",
    ]


def _assert_clean(events: list[dict], secrets: list[str]) -> str:
    assert events, "sentry-sdk sent no event"
    text = json.dumps(events)
    for secret in secrets:
        assert secret not in text
    assert not TILE.findall(text), TILE.findall(text)[:5]
    return text


def _fail_after_the_move(monkeypatch):
    """The move is applied and saved (SQL with the new snapshot runs), then the answer
    fails with the hand's secrets in local variables and the seed in the message."""
    import tables.api.moves

    def broken(request, table, seat, *args, **kwargs):
        hand = table.state["hands"][-1]
        # locals a frame would carry to Sentry if local variables were collected
        stock, seed, holdings = hand["stock"], hand["seed"], hand["holdings"]  # noqa: F841
        token = Token.objects.first().key
        raise RuntimeError(f"answer failed (seed {seed}, token {token})")

    monkeypatch.setattr(tables.api.moves, "table_response", broken)  # the move's answer


def _failing_move(api_client_for, alice, bob, monkeypatch) -> tuple[int, object]:
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    turn = table(clients[0], table_id)["turn_seat"]
    mine = table(clients[turn], table_id)
    move = mine["game"]["legal_moves"][0]
    _fail_after_the_move(monkeypatch)
    key = Token.objects.get(user=[alice, bob][turn]).key
    client = APIClient(raise_request_exception=False)
    client.cookies["sessionid"] = "sessionid-value-1"
    client.cookies["csrftoken"] = "csrftoken-value-1"
    reply = client.post(
        f"/api/v1/tables/{table_id}/moves/?since_version=1&token={key}",
        {"tile": move["tile"], "end": move["end"], "version": mine["version"]},
        format="json",
        HTTP_AUTHORIZATION=f"Token {key}",
        HTTP_IDEMPOTENCY_KEY="retry-key-1",
    )
    assert reply.status_code == 500
    return table_id, reply


def test_a_failing_move_reports_the_error_without_the_game(
    sentry_events, api_client_for, alice, bob, monkeypatch
):
    table_id, _ = _failing_move(api_client_for, alice, bob, monkeypatch)

    text = _assert_clean(sentry_events, _secrets(table_id))
    event = sentry_events[-1]
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert "answer failed" in text  # the error itself is reported
    assert "retry-key-1" not in text
    assert event["request"].get("data") in (None, "[Filtered]")
    frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
    assert not [frame for frame in frames if frame.get("vars")]


def test_the_scrubbers_alone_hold_when_sentry_collects_everything(
    permissive_sentry_events, api_client_for, alice, bob, monkeypatch
):
    table_id, _ = _failing_move(api_client_for, alice, bob, monkeypatch)

    _assert_clean(permissive_sentry_events, _secrets(table_id))
    event = permissive_sentry_events[-1]
    assert event["request"]["data"] == "[Filtered]"
    assert event["request"]["cookies"] == "[Filtered]"
    assert "retry-key-1" not in json.dumps(event)
    crumbs = event.get("breadcrumbs", {}).get("values", [])
    queries = [crumb for crumb in crumbs if crumb.get("category") == "query"]
    assert queries, "the SQL breadcrumbs were recorded"
    assert not [crumb for crumb in queries if "db.params" in (crumb.get("data") or {})]


@pytest.mark.parametrize("events_fixture", ["sentry_events", "permissive_sentry_events"])
def test_a_failing_login_reports_no_password(events_fixture, request, alice, monkeypatch):
    import allauth.account.adapter

    sentry_events = request.getfixturevalue(events_fixture)

    def broken(*args, **kwargs):
        raise RuntimeError("authentication backend down")

    # The logins go through django-allauth's adapter (issue 17), which calls Django's
    # authenticate: break it there.
    monkeypatch.setattr(allauth.account.adapter, "authenticate", broken)
    client = APIClient(raise_request_exception=False)
    for path in ("/api/v1/accounts/token/", "/api/v1/accounts/login/"):
        reply = client.post(path, {"username": "alice", "password": PASSWORD}, format="json")
        assert reply.status_code == 500, (path, reply.status_code)

    _assert_clean(sentry_events, [PASSWORD])


def test_a_failing_task_reports_the_error_without_the_game(
    sentry_events, api_client_for, alice, bob, monkeypatch, caplog
):
    """A sweep that hits a broken table logs the exception: the logging integration
    reports it, with the frame's secrets dropped."""
    import tables.tasks

    table_id, _clients = seated_clients(api_client_for, [alice, bob])

    def broken_rule(*, table_id, now, skip_locked):
        state = Table.objects.get(pk=table_id).state
        stock = state["hands"][-1]["stock"]  # noqa: F841 (a local for the frame)
        raise RuntimeError(f"sweep failed at seed {state['hands'][-1]['seed']}")

    with caplog.at_level(logging.ERROR):
        tables.tasks._sweep("absence", [table_id], broken_rule, now=None)

    _assert_clean(sentry_events, _secrets(table_id))
    assert any("sweep failed" in json.dumps(event) for event in sentry_events)


def test_a_task_that_raises_is_reported_by_the_celery_integration(
    sentry_events, api_client_for, alice, bob, monkeypatch
):
    import tables.services
    import tables.tasks

    table_id, _clients = seated_clients(api_client_for, [alice, bob])
    secret_seed = Table.objects.get(pk=table_id).state["hands"][-1]["seed"]

    def broken(**kwargs):
        raise RuntimeError(f"bot failed, seed {secret_seed}")

    monkeypatch.setattr(tables.services, "bot_play", broken)
    with pytest.raises(RuntimeError):
        tables.tasks.bot_play.apply(args=(table_id, 1), throw=True)

    _assert_clean(sentry_events, _secrets(table_id))
    assert any("bot failed" in json.dumps(event) for event in sentry_events)


def test_scrub_event_filters_known_keys_at_any_depth():
    event = {
        "extra": {"table": {"state": {"hands": [1]}, "id": 3}, "Password": "x"},
        "contexts": {"celery": {"kwargs": {"invite_token": "abc", "table_id": 3}}},
        "request": {
            "url": "https://domino.example/invitacion/AbC_d-9/",
            "headers": {"Authorization": "Token 0123", "X-Csrftoken": "c", "Accept": "json"},
            "data": {"tile": "6-4"},
            "cookies": {"sessionid": "s"},
            "query_string": "token=abc",
        },
        "message": "seed " + "ab" * 32 + " token " + "cd" * 20,
    }
    scrubbed = scrub_event(event, {})
    assert scrubbed["extra"] == {
        "table": {"state": "[Filtered]", "id": 3},
        "Password": "[Filtered]",
    }
    assert scrubbed["contexts"]["celery"]["kwargs"] == {"invite_token": "[Filtered]", "table_id": 3}
    assert scrubbed["request"]["url"] == "https://domino.example/invitacion/[Filtered]/"
    assert scrubbed["request"]["headers"] == {
        "Authorization": "[Filtered]",
        "X-Csrftoken": "[Filtered]",
        "Accept": "json",
    }
    for part in ("data", "cookies", "query_string"):
        assert scrubbed["request"][part] == "[Filtered]"
    assert scrubbed["message"] == "seed [Filtered] token [Filtered]"


def test_without_a_dsn_nothing_is_started():
    from django.conf import settings

    assert settings.SENTRY_DSN == ""
    assert not sentry_sdk.get_client().is_active()


def test_sentry_dsn_switches_it_on_with_the_django_and_celery_integrations():
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sentry_sdk\n"
        "client = sentry_sdk.get_client()\n"
        "options = client.options\n"
        "names = client.integrations\n"
        "print(client.is_active(), 'django' in names, 'celery' in names,"
        " options['send_default_pii'], options['include_local_variables'],"
        " options['max_request_body_size'], options['before_send'].__name__,"
        " options['before_breadcrumb'].__name__)\n"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script, "--settings=config.settings.local"],
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "SENTRY_DSN": DSN},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == [
        "True",
        "True",
        "True",
        "False",
        "False",
        "never",
        "scrub_event",
        "scrub_breadcrumb",
    ]
