"""R6: each hand publishes SHA-256 of its seed when it starts and the seed when it ends,
and anyone can recompute the deal from the seed (``dominoes.deal``, the algorithm in
``dominoes/deal.py``'s docstring) and find the one the record says was dealt."""

from __future__ import annotations

import hashlib
import random

import pytest

from dominoes import PROFILES, deal
from tests.support.api import play_until, seated_clients, table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("size", [2, 3, 4])
def test_the_revealed_seed_matches_the_commitment_and_reproduces_the_deal(
    size, api_client_for, alice, bob, carol, dave
):
    table_id, clients = seated_clients(api_client_for, [alice, bob, carol, dave][:size])
    start = table(clients[0], table_id)["game"]
    committed = start["seed_sha256"]
    assert len(committed) == 64
    for seat in clients:  # everyone is shown the same commitment
        assert table(clients[seat], table_id)["game"]["seed_sha256"] == committed

    state = play_until(
        clients,
        table_id,
        random.Random(size),
        lambda s: s["game"]["last_hand"] is not None,
    )

    last = state["game"]["last_hand"]
    seed = last["seed"]
    assert last["number"] == 0
    assert last["seed_sha256"] == committed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == committed
    assert len(bytes.fromhex(seed)) >= 16  # at least 128 bits (32 bytes from secrets)
    if state["status"] == "playing":
        assert state["game"]["seed_sha256"] != committed  # the next hand has its own seed

    record = clients[0].get(f"/api/v1/tables/{table_id}/record/").json()
    hand = record["hands"][0]
    assert hand["seed"] == seed
    assert hand["seed_sha256"] == committed
    dealt, stock = deal(PROFILES[record["rules"]], record["seats"], bytes.fromhex(seed))
    assert [[str(tile) for tile in tiles] for tiles in dealt] == hand["dealt"]
    assert [str(tile) for tile in stock] == hand["stock"]


def test_a_different_seed_gives_a_different_deal():
    rules = PROFILES["classic"]
    deals = {tuple(str(t) for t in deal(rules, 2, bytes([n]) * 32)[0][0]) for n in range(20)}
    assert len(deals) == 20
