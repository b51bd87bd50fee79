"""Many requests racing for one turn (PostgreSQL: real row locks between connections).

Every write locks the table row and checks the client's ``version``: of 20 simultaneous
POSTs for the same turn exactly one is applied, the rest are refused with 409
(``stale_version``, or ``not_your_turn`` for the seat that is not to act), none is a 500,
and the table still replays from its log to the snapshot.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tables.models import Move
from tests.support.api import seated_clients, table
from tests.support.log import assert_replays

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 20


def _race(requests: list[tuple[str, str, dict, dict]]) -> list[tuple[int, dict]]:
    """Send each ``(token, path, body, headers)`` from its own thread, all released at
    once; returns ``(status, json)`` in the same order."""
    barrier = threading.Barrier(len(requests))
    results: list[tuple[int, dict] | BaseException | None] = [None] * len(requests)

    def run(index: int, token: str, path: str, body: dict, headers: dict) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}", **headers)
            barrier.wait(timeout=30)
            response = client.post(path, body, format="json")
            results[index] = (response.status_code, response.json())
        except BaseException as error:  # surfaced below, with the thread's index
            results[index] = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(index, *request))
        for index, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for index, result in enumerate(results):
        if not isinstance(result, tuple):
            raise AssertionError(f"request {index} did not answer: {result!r}")
    return results  # type: ignore[return-value]


def _tokens(users) -> dict[int, str]:
    return {seat: Token.objects.get_or_create(user=user)[0].key for seat, user in enumerate(users)}


def test_twenty_racing_moves_for_one_turn_apply_exactly_once(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    tokens = _tokens([alice, bob])
    state = table(clients[0], table_id)
    mover = state["turn_seat"]
    other = 1 - mover
    moves = table(clients[mover], table_id)["game"]["legal_moves"]
    path = f"/api/v1/tables/{table_id}/moves/"
    chosen_before = Move.objects.filter(table_id=table_id, automatic=False).count()
    requests = []
    for index in range(RACERS):
        seat = mover if index % 4 else other  # a quarter from the seat that is not to act
        move = moves[index % len(moves)]
        body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
        requests.append((tokens[seat], path, body, {}))

    results = _race(requests)

    statuses = [status for status, _body in results]
    assert 500 not in statuses
    assert statuses.count(200) == 1, results
    winner = statuses.index(200)
    assert requests[winner][0] == tokens[mover]
    for status, body in results:
        if status != 200:
            assert status == 409, body
            assert body["code"] in ("stale_version", "not_your_turn"), body
    chosen_after = Move.objects.filter(table_id=table_id, automatic=False).count()
    assert chosen_after == chosen_before + 1
    after = table(clients[0], table_id)
    assert after["version"] == state["version"] + 1
    assert_replays(table_id)


def test_racing_moves_over_many_turns_lose_and_duplicate_nothing(api_client_for, alice, bob):
    """Ten turns in a row, each raced by both seats with every legal move: each turn is
    applied once, the chosen moves in the log are exactly the 200 answers."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    tokens = _tokens([alice, bob])
    path = f"/api/v1/tables/{table_id}/moves/"
    applied = 0
    chosen_before = Move.objects.filter(table_id=table_id, automatic=False).count()
    for _turn in range(10):
        state = table(clients[0], table_id)
        if state["status"] != "playing" or state["turn_seat"] is None:
            break
        mover = state["turn_seat"]
        moves = table(clients[mover], table_id)["game"]["legal_moves"]
        requests = [
            (tokens[seat], path, {**move, "version": state["version"]}, {})
            for move in moves
            for seat in (0, 1)
            for _copy in range(3)
        ][:RACERS]
        results = _race(requests)
        statuses = [status for status, _body in results]
        assert 500 not in statuses, results
        assert statuses.count(200) == 1, results
        applied += 1
    chosen_after = Move.objects.filter(table_id=table_id, automatic=False).count()
    assert chosen_after - chosen_before == applied
    assert_replays(table_id)
