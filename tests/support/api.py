"""Helpers for API tests: create tables, join them, and play turns chosen from the
``legal_moves`` the API itself offers."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def token_client(user, *, raise_request_exception: bool = True):
    """An ``APIClient`` sending ``user``'s API token; with ``raise_request_exception=False``
    a server error is answered (a 500 response) instead of raised in the test."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=raise_request_exception)
    token, _created = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def create_table(client, seats: int, others: list[str], target: int = 100) -> dict:
    response = client.post(
        "/api/v1/tables/", {"seats": seats, "target": target, "others": others}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def join(client, token: str) -> dict:
    response = client.post(f"/api/v1/invites/{token}/join/")
    assert response.status_code == 200, response.json()
    return response.json()


def table(client, table_id: int) -> dict:
    response = client.get(f"/api/v1/tables/{table_id}/")
    assert response.status_code == 200, response.json()
    return response.json()


def play_one(client, state: dict, rng: random.Random):
    """Play a random legal move from ``state`` (the caller's view); returns the response."""
    move = rng.choice(state["game"]["legal_moves"])
    return client.post(
        f"/api/v1/tables/{state['id']}/moves/",
        {"tile": move["tile"], "end": move["end"], "version": state["version"]},
        format="json",
    )


def play_until(clients: dict[int, object], table_id: int, rng: random.Random, stop) -> dict:
    """Let the seats in ``clients`` (seat index -> client) play random legal moves until
    ``stop(state)`` is true for the state seen by seat 0's client; returns that state."""
    while True:
        state = table(clients[0], table_id)
        if stop(state):
            return state
        turn = state["turn_seat"]
        assert turn is not None and turn in clients, state
        mover = table(clients[turn], table_id)
        response = play_one(clients[turn], mover, rng)
        assert response.status_code == 200, response.json()


def replay(record: dict) -> dict:
    """What ``python -m dominoes replay -`` (run from the repository root) answers for an
    exported ``record``; fails the test when the command does."""
    result = subprocess.run(
        [sys.executable, "-m", "dominoes", "replay", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, f"exit {result.returncode}: {result.stdout}{result.stderr}"
    return json.loads(result.stdout)


def seat_clients(api_client_for, users, created: dict) -> dict[int, object]:
    """Seat index -> API client for the table ``created`` (the API's answer): users[1:]
    join through the invite links, in seat order."""
    clients = {0: api_client_for(users[0])}
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    for seat, user in enumerate(users[1:], start=1):
        clients[seat] = api_client_for(user)
        join(clients[seat], invites[seat])
    return clients


def seated_table(api_client_for, users, *, target: int = 100) -> tuple[int, dict, list[str]]:
    """A table created by ``users[0]`` with every other user joined through the share link:
    ``(table_id, {seat index: client}, [used invite tokens])``. The match is running."""
    creator = api_client_for(users[0])
    created = create_table(creator, len(users), ["friend"] * (len(users) - 1), target)
    clients = seat_clients(api_client_for, users, created)
    return created["id"], clients, [invite["token"] for invite in created["invites"]]


def seated_clients(api_client_for, users, *, target: int = 100) -> tuple[int, dict]:
    """``seated_table`` without the tokens: ``(table_id, {seat index: client})``."""
    table_id, clients, _tokens = seated_table(api_client_for, users, target=target)
    return table_id, clients


def play_turn_of(clients, table_id: int, rng: random.Random) -> dict:
    """The seat to move plays a random legal move through the API; returns its response."""
    state = table(clients[0], table_id)
    mover = table(clients[state["turn_seat"]], table_id)
    response = play_one(clients[state["turn_seat"]], mover, rng)
    assert response.status_code == 200, response.json()
    return response.json()
