"""Retried moves (``Idempotency-Key``): the same key gets the first answer again, status and
body, and changes nothing; a refused move is refused the same way; racing requests with
one key apply once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from tables.models import Move, MoveRequest, Table
from tests.security.test_concurrency import _race
from tests.support.api import seated_clients, table
from tests.support.log import assert_replays


def _post(client, table_id: int, body: dict, key: str | None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(f"/api/v1/tables/{table_id}/moves/", body, format="json", **headers)


def _mover(clients, table_id):
    state = table(clients[0], table_id)
    seat = state["turn_seat"]
    return seat, table(clients[seat], table_id)


def _counts(table_id: int) -> tuple[int, int]:
    return Table.objects.get(pk=table_id).version, Move.objects.filter(table_id=table_id).count()


@pytest.mark.django_db
def test_a_retried_move_gets_the_first_answer_and_changes_nothing(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    move = state["game"]["legal_moves"][0]
    body = {**move, "version": state["version"]}

    first = _post(clients[seat], table_id, body, "retry-1")
    assert first.status_code == 200, first.json()
    after_first = _counts(table_id)

    for _ in range(3):
        again = _post(clients[seat], table_id, body, "retry-1")
        assert again.status_code == first.status_code
        assert again.json() == first.json()
        assert _counts(table_id) == after_first
    assert MoveRequest.objects.filter(table_id=table_id).count() == 1
    assert_replays(table_id)


@pytest.mark.django_db
def test_without_a_key_a_retry_is_refused_as_stale(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    body = {**state["game"]["legal_moves"][0], "version": state["version"]}
    assert _post(clients[seat], table_id, body, None).status_code == 200
    after = _counts(table_id)
    again = _post(clients[seat], table_id, body, None)
    assert (again.status_code, again.json()["code"]) == (409, "stale_version")
    assert _counts(table_id) == after


@pytest.mark.django_db
def test_a_refused_move_is_refused_again_with_the_same_key(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    held = set(state["game"]["tiles"])
    foreign = next(t for t in ("6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0") if t not in held)
    body = {"tile": foreign, "version": state["version"]}
    before = _counts(table_id)

    first = _post(clients[seat], table_id, body, "bad-1")
    assert first.status_code == 400
    assert first.json()["code"] in ("tile_not_in_hand", "wrong_lead")
    again = _post(clients[seat], table_id, body, "bad-1")
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert _counts(table_id) == before


@pytest.mark.django_db
def test_a_stale_refusal_is_remembered_too(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    body = {**state["game"]["legal_moves"][0], "version": state["version"] + 5}
    first = _post(clients[seat], table_id, body, "stale-1")
    assert (first.status_code, first.json()["code"]) == (409, "stale_version")
    assert first.json()["version"] == state["version"]
    before = _counts(table_id)
    again = _post(clients[seat], table_id, body, "stale-1")
    assert (again.status_code, again.json()) == (409, first.json())
    assert _counts(table_id) == before


@pytest.mark.django_db
def test_keys_are_per_user_and_table(api_client_for, alice, bob):
    """bob reusing alice's key neither sees her answer nor is blocked by it."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    body = {**state["game"]["legal_moves"][0], "version": state["version"]}
    assert _post(clients[seat], table_id, body, "shared").status_code == 200
    other = 1 - seat
    state = table(clients[other], table_id)
    reply = _post(
        clients[other],
        table_id,
        {**state["game"]["legal_moves"][0], "version": state["version"]},
        "shared",
    )
    assert reply.status_code == 200, reply.json()
    assert reply.json()["your_seat"] == other


@pytest.mark.django_db
def test_a_stranger_with_a_key_gets_404_and_leaves_no_trace(api_client_for, alice, bob, mallory):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    state = table(clients[0], table_id)
    before = _counts(table_id)
    reply = _post(
        api_client_for(mallory), table_id, {"tile": "6-6", "version": state["version"]}, "m-1"
    )
    assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    assert _counts(table_id) == before
    assert not MoveRequest.objects.filter(user=mallory).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["x" * 129, "bad\x00key", "tab\tkey", "ñ-key"])
def test_a_malformed_key_is_refused(api_client_for, alice, bob, key):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    before = _counts(table_id)
    reply = _post(
        clients[seat],
        table_id,
        {**state["game"]["legal_moves"][0], "version": state["version"]},
        key,
    )
    assert reply.status_code == 400
    assert reply.json()["code"] == "invalid"
    assert _counts(table_id) == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_requests_with_one_key_apply_once(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    token = Token.objects.get_or_create(user=[alice, bob][seat])[0].key
    body = {**state["game"]["legal_moves"][0], "version": state["version"]}
    path = f"/api/v1/tables/{table_id}/moves/"
    chosen_before = Move.objects.filter(table_id=table_id, automatic=False).count()

    results = _race([(token, path, body, {"HTTP_IDEMPOTENCY_KEY": "same"})] * 10)

    assert [status for status, _ in results] == [200] * 10, results
    assert all(body == results[0][1] for _, body in results)
    assert Move.objects.filter(table_id=table_id, automatic=False).count() == chosen_before + 1
    assert Table.objects.get(pk=table_id).version == state["version"] + 1
    assert_replays(table_id)


@pytest.mark.django_db
def test_an_overdue_turn_with_a_key_stays_forfeited_and_its_refusal_is_remembered(
    api_client_for, alice, bob
):
    # The forfeit (R27) is saved before turn_expired is raised inside the view's
    # transaction: it must commit with the remembered answer, not roll back with it.
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    Table.objects.filter(pk=table_id).update(deadline=timezone.now() - timedelta(seconds=1))
    body = {**state["game"]["legal_moves"][0], "version": state["version"]}

    first = _post(clients[seat], table_id, body, "late-1")
    assert (first.status_code, first.json()["code"]) == (409, "turn_expired")
    forfeited = Table.objects.get(pk=table_id)
    assert forfeited.status == Table.Status.FINISHED
    assert forfeited.outcome == Table.Outcome.ABSENT
    assert MoveRequest.objects.filter(table_id=table_id, key="late-1").count() == 1
    after = _counts(table_id)
    again = _post(clients[seat], table_id, body, "late-1")
    assert (again.status_code, again.json()) == (409, first.json())
    assert _counts(table_id) == after
    assert_replays(table_id)


@pytest.mark.django_db
def test_a_body_that_fails_validation_is_not_remembered_and_a_stranger_gets_404_first(
    api_client_for, alice, bob, mallory
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    seat, state = _mover(clients, table_id)
    malformed = {"tile": " 6-6 ", "version": state["version"]}
    stranger = _post(api_client_for(mallory), table_id, malformed, "v-1")
    assert (stranger.status_code, stranger.json()["code"]) == (404, "not_found")

    refused = _post(clients[seat], table_id, malformed, "v-1")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    assert not MoveRequest.objects.filter(table_id=table_id).exists()
    body = {**state["game"]["legal_moves"][0], "version": state["version"]}
    played = _post(clients[seat], table_id, body, "v-1")  # the key was not used up
    assert played.status_code == 200, played.json()
    assert played.json()["version"] == state["version"] + 1
