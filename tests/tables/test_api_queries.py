"""``GET table`` and ``POST move`` cost a constant number of SQL queries, whatever the
length of the move log: the snapshot is read, never the log replayed (DESIGN.md)."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Move
from tests.support.api import create_table, join, play_one, table

pytestmark = pytest.mark.django_db


def _measure(clients, table_id, rng):
    """Queries of one GET table and of one POST move (a play that does not end the hand)."""
    state = table(clients[0], table_id)
    mover = table(clients[state["turn_seat"]], table_id)
    with CaptureQueriesContext(connection) as reading:
        clients[state["turn_seat"]].get(f"/api/v1/tables/{table_id}/")
    with CaptureQueriesContext(connection) as moving:
        response = play_one(clients[state["turn_seat"]], mover, rng)
    assert response.status_code == 200
    return len(reading), len(moving), response.json()


def test_it_costs_the_same_queries_at_2_and_at_20_moves(api_client_for, alice, bob, carol, dave):
    for attempt in range(20):
        created = create_table(api_client_for(alice), 4, ["friend"] * 3)
        clients = {0: api_client_for(alice)}
        for seat, user in zip((1, 2, 3), (bob, carol, dave), strict=True):
            clients[seat] = api_client_for(user)
            join(clients[seat], created["invites"][seat - 1]["token"])
        rng = random.Random(attempt)
        for _ in range(2):
            assert (
                play_one(
                    clients[table(clients[0], created["id"])["turn_seat"]],
                    table(clients[table(clients[0], created["id"])["turn_seat"]], created["id"]),
                    rng,
                ).status_code
                == 200
            )
        early = _measure(clients, created["id"], rng)
        while Move.objects.filter(table_id=created["id"]).count() < 20:
            state = table(clients[0], created["id"])
            if state["game"]["last_hand"] is not None:
                break
            mover = table(clients[state["turn_seat"]], created["id"])
            play_one(clients[state["turn_seat"]], mover, rng)
        else:
            late = _measure(clients, created["id"], rng)
            if late[2]["game"]["last_hand"] is None and early[2]["game"]["last_hand"] is None:
                assert late[:2] == early[:2], (early[:2], late[:2])
                return
    pytest.fail("no 4-seat hand lasted 21 moves in 20 attempts")
