"""The inbox folds the ends of a match's hands into one entry per table that updates:
"Terminó la mano 3 de la mesa 12: …" replaced by the newest hand's, on the page and in
the API, unread again when a new hand ends (with how many ended since it was read), and a
retried task tells no hand twice."""

from __future__ import annotations

import random

import pytest

from notices import tasks as notice_tasks
from notices.models import Notification
from tables.models import Hand
from tests.support.api import create_table, join, play_turn_of
from tests.support.database import fresh

pytestmark = pytest.mark.django_db


def _ended(table_id: int) -> int:
    return Hand.objects.filter(table_id=table_id, ended_at__isnull=False).count()


def test_the_hand_ends_of_a_match_are_one_entry_that_updates(
    clock, api_client_for, run_tasks, alice, bob, client
):
    created = create_table(api_client_for(alice), 2, ["friend"], target=100)
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    table_id = created["id"]
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    rng = random.Random(8)
    told = []
    while len(told) < 3 and fresh(table_id).status == "playing":
        before = _ended(table_id)
        with run_tasks():
            play_turn_of(clients, table_id, rng)
        if _ended(table_id) == before or fresh(table_id).status != "playing":
            continue
        (row,) = Notification.objects.filter(recipient=alice, table=table_id, kind="hand_over")
        assert row.read_at is None  # a new hand end: unread again, and newest
        assert row.payload["hand"] == _ended(table_id)
        assert row.payload["hands"] == list(range(1, _ended(table_id) + 1))
        told.append(row.payload["hand"])
    assert told[:2] == [1, 2], told  # (seed 8: three hands end before the match does)
    last = told[-1]

    api = clients[0].get("/api/v1/notifications/").json()["results"]
    hands = [n for n in api if n["kind"] == "hand_over"]
    assert len(hands) == 1
    assert hands[0]["text"].startswith(f"Terminó la mano {last} de la mesa {table_id}")
    assert hands[0]["read"] is True  # alice read the table since (the next move)
    client.force_login(alice)
    page = client.get("/avisos/").content.decode()
    assert page.count("Terminó la mano") == 1 and f"la mano {last} de la mesa {table_id}" in page

    with run_tasks():
        assert notice_tasks.record_hand_over(table_id, 1) == 0  # retried: nothing twice
    (row,) = Notification.objects.filter(recipient=alice, table=table_id, kind="hand_over")
    assert row.payload["hand"] == last and row.read_at is not None


def test_the_migration_keeps_the_newest_hand_end_of_each_table(alice, bob):
    import importlib
    from datetime import timedelta

    from django.apps import apps
    from django.utils import timezone

    from tests.support.database import human_table

    fold = importlib.import_module("notices.migrations.0011_fold_hand_ends")
    row = human_table(alice, bob)
    now = timezone.now()
    for person in (alice, bob):
        for number in range(3):
            Notification.objects.create(
                recipient=person,
                kind="hand_over",
                table=row,
                key=str(number),
                payload={"hand": number + 1},
                created_at=now + timedelta(seconds=number),
            )
    fold.keep_the_newest(apps, None)
    kept = Notification.objects.filter(kind="hand_over", table=row)
    assert sorted(kept.values_list("recipient__username", "key")) == [
        ("alice", "2"),
        ("bob", "2"),
    ]
