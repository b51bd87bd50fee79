"""``GET /metrics``: never public (404 without ``METRICS_TOKEN`` and its bearer token),
and its counters follow the game: a move moves ``domino_moves_total`` by one, the bot's
answer its own count and its thinking time, a sweep its time and rows due, a finished
match its profile and size (the notices' outcomes: tests/notices/test_notice_metrics.py)."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest
from django.test import override_settings
from prometheus_client.parser import text_string_to_metric_families

from core import metrics
from tables import tasks
from tables.models import Move
from tests.support.api import create_table, play_one, table

pytestmark = pytest.mark.django_db

TOKEN = "metrics-token-for-the-tests"
SCRAPE = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


def _scrape(client) -> dict[tuple[str, tuple], float]:
    """Every sample of ``/metrics`` as ``{(name, sorted labels): value}``."""
    with override_settings(METRICS_TOKEN=TOKEN):
        answer = client.get("/metrics", **SCRAPE)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(answer.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def _value(samples, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.parametrize(
    "token, headers",
    [
        ("", {}),  # no METRICS_TOKEN: never answered
        ("", {"HTTP_AUTHORIZATION": "Bearer "}),
        (TOKEN, {}),
        (TOKEN, {"HTTP_AUTHORIZATION": "Bearer not-the-token"}),
        (TOKEN, {"HTTP_AUTHORIZATION": TOKEN}),  # no scheme
        (TOKEN, {"HTTP_AUTHORIZATION": f"Basic {TOKEN}"}),
    ],
)
def test_metrics_are_refused_without_the_token(client, token, headers):
    with override_settings(METRICS_TOKEN=token):
        answer = client.get("/metrics", **headers)
    assert answer.status_code == 404
    assert b"domino_" not in answer.content


def test_metrics_answer_only_get(client):
    with override_settings(METRICS_TOKEN=TOKEN):
        assert client.post("/metrics", **SCRAPE).status_code == 404
        assert client.get("/metrics", **SCRAPE).status_code == 200


def test_metrics_ignore_the_host_and_the_https_redirect(client):
    """Prometheus scrapes the container by its name over plain HTTP, as /healthz is."""
    with override_settings(METRICS_TOKEN=TOKEN, SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["x.org"]):
        answer = client.get("/metrics", HTTP_HOST="web:8000", **SCRAPE)
    assert answer.status_code == 200


@pytest.mark.django_db(transaction=True)  # a bot's lead is played on commit
def test_a_move_moves_the_moves_counter_by_one_and_the_bots_answer_is_counted(
    client, alice, api_client_for
):
    player = api_client_for(alice)
    created = create_table(player, 2, ["garabato"], target=50)
    state = table(player, created["id"])
    assert state["your_turn"], state
    rows = Move.objects.filter(table_id=created["id"])
    written_before = rows.count()
    before = _scrape(client)

    answer = play_one(player, state, random.Random(2))

    assert answer.status_code == 200
    after = _scrape(client)
    moved = {k: after[k] - before.get(k, 0) for k in after if k[0] == "domino_moves_total"}
    moved = {dict(k[1])["by"] + " " + dict(k[1])["kind"]: v for k, v in moved.items() if v}
    assert moved.pop("player play") == 1
    new = rows.order_by("id")[written_before:]
    bot_plays = sum(1 for m in new if m.seat == 1 and not m.automatic)
    assert moved.get("bot play", 0) == bot_plays
    assert sum(moved.values()) == len(new) - 1  # every other row: the bot's, the automatic
    thought = _value(after, "domino_bot_move_seconds_count", bot="garabato") - _value(
        before, "domino_bot_move_seconds_count", bot="garabato"
    )
    assert thought == bot_plays


def test_a_refused_move_counts_nothing(client, alice, api_client_for):
    player = api_client_for(alice)
    created = create_table(player, 2, ["garabato"], target=50)
    before = _scrape(client)
    body = {"tile": "6-6", "version": 999}
    answer = player.post(f"/api/v1/tables/{created['id']}/moves/", body, format="json")
    assert answer.status_code == 409
    after = _scrape(client)
    moves = {k: v for k, v in after.items() if k[0] == "domino_moves_total"}
    assert moves == {k: v for k, v in before.items() if k[0] == "domino_moves_total"}


def test_a_sweep_records_its_time_and_the_rows_it_found_due(client):
    before = _scrape(client)
    tasks.sweep_absences()
    after = _scrape(client)
    count = "domino_sweep_seconds_count"
    assert _value(after, count, sweep="absence") == _value(before, count, sweep="absence") + 1
    assert ("domino_sweep_rows_due", (("sweep", "absence"),)) in after
    assert _value(after, "domino_sweep_rows_due", sweep="absence") == 0


@pytest.mark.django_db(transaction=True)  # the notices' tasks are sent on commit
def test_a_finished_match_is_counted_by_profile_and_size(client, alice, api_client_for):
    player = api_client_for(alice)
    before = _scrape(client)
    created = create_table(player, 2, ["garabato"], target=50)
    rng = random.Random(4)
    for _turn in range(500):
        state = table(player, created["id"])
        if state["status"] != "playing":
            break
        assert play_one(player, state, rng).status_code == 200
    assert state["status"] == "finished"
    after = _scrape(client)
    finished = {"profile": "classic", "seats": "2", "outcome": "target"}
    name = "domino_matches_finished_total"
    assert _value(after, name, **finished) == _value(before, name, **finished) + 1


def test_the_queue_lag_runs_from_the_sending_or_the_countdowns_end():
    headers = {}
    metrics.stamp_sent_at(headers=headers)
    task = SimpleNamespace(
        name="tables.tasks.bot_play",
        request=SimpleNamespace(domino_sent_at=headers["domino_sent_at"] - 2.0, eta=None),
    )
    count = "domino_task_queue_lag_seconds_count"
    total = "domino_task_queue_lag_seconds_sum"
    labels = {"task": "tables.tasks.bot_play"}
    registry = metrics.registry()
    before = (
        registry.get_sample_value(count, labels) or 0,
        registry.get_sample_value(total, labels) or 0,
    )
    metrics.observe_queue_lag(task=task)
    lag = registry.get_sample_value(total, labels) - before[1]
    assert registry.get_sample_value(count, labels) == before[0] + 1
    assert 2.0 <= lag < 3.0
    eager = SimpleNamespace(name=task.name, request=SimpleNamespace(is_eager=True))
    metrics.observe_queue_lag(task=eager)  # a task run inline never waited in a queue
    assert registry.get_sample_value(count, labels) == before[0] + 1
    assert time.time() - headers["domino_sent_at"] < 60
