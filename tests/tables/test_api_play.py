"""Whole hands and matches through the API with named actors (R1-R25, R29, R30).

alice creates the table, bob (and carol, dave) join through the share links, and every
move is one the API listed in ``legal_moves``; the record the API exports must replay
(``python -m dominoes replay``) to the scores the API shows.
"""

import random

import pytest

from tests.support.api import create_table, join, play_until, replay

pytestmark = pytest.mark.django_db


def _seat_clients(api_client_for, users, created):
    clients = {0: api_client_for(users[0])}
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    for seat, user in enumerate(users[1:], start=1):
        clients[seat] = api_client_for(user)
        join(clients[seat], invites[seat])
    return clients


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_whole_hand_scores_as_replay_says(seats, api_client_for, alice, bob, carol, dave):
    users = [alice, bob, carol, dave][:seats]
    created = create_table(api_client_for(alice), seats, ["friend"] * (seats - 1))
    assert created["status"] == "waiting"
    assert len(created["invites"]) == seats - 1
    clients = _seat_clients(api_client_for, users, created)
    state = play_until(
        clients, created["id"], random.Random(seats), lambda s: s["game"]["last_hand"] is not None
    )
    last = state["game"]["last_hand"]
    record = clients[1].get(f"/api/v1/tables/{created['id']}/record/").json()
    assert len(record["hands"]) == 1
    answer = replay(record)
    assert answer["hands"][0]["points"] == last["points"]
    assert answer["hands"][0]["winner"] == last["winners"]
    assert answer["hands"][0]["counts"] == last["counts"]
    assert answer["scores"] == [player["score"] for player in state["players"]]
    assert answer["scores"] == state["game"]["scores"]


def test_a_whole_match_to_50_ends_with_a_winner(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"], target=50)
    clients = _seat_clients(api_client_for, [alice, bob], created)
    state = play_until(clients, created["id"], random.Random(7), lambda s: s["status"] != "playing")
    assert state["status"] == "finished"
    assert state["outcome"] == "target"
    assert max(state["game"]["scores"]) >= 50
    record = clients[0].get(f"/api/v1/tables/{created['id']}/record/").json()
    answer = replay(record)
    assert answer["winner"] == state["winners"]
    assert answer["scores"] == state["game"]["scores"]
    assert all(hand["seed"] for hand in record["hands"])
