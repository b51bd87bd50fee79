"""The fair shuffle can be verified from a record (R6): a revealed seed must hash to the
published ``seed_sha256`` and deal exactly the recorded tiles."""

import json
import random

from dominoes import advance, legal_moves, match_to_record, new_match, play_turn, start_hand
from dominoes.record import replay_text


def _finished_match_record() -> dict:
    rng = random.Random(3)
    match = new_match(2, 50, seed=bytes(range(32)))
    while not match.is_over:
        match = advance(match)
        while not match.hand.is_over:
            match = play_turn(match, rng.choice(legal_moves(match)))
        if not match.is_over:
            match = start_hand(match)
    return match_to_record(match)


def test_a_record_with_its_seeds_replays():
    record = _finished_match_record()
    assert all(hand["seed"] and hand["seed_sha256"] for hand in record["hands"])
    status, answer = replay_text(json.dumps(record))
    assert (status, answer["ok"]) == (0, True)


def test_a_deal_that_its_seed_does_not_give_is_refused():
    record = _finished_match_record()
    stock = record["hands"][1]["stock"]
    stock[0], stock[1] = stock[1], stock[0]
    status, answer = replay_text(json.dumps(record))
    assert status == 1
    assert (answer["hand"], answer["action"], answer["error"], answer["rule"]) == (
        1,
        None,
        "bad_deal",
        "R6",
    )


def test_a_seed_that_does_not_hash_to_its_commitment_is_refused():
    record = _finished_match_record()
    record["hands"][0]["seed_sha256"] = "0" * 64
    status, answer = replay_text(json.dumps(record))
    assert (status, answer["error"], answer["rule"], answer["hand"]) == (1, "bad_deal", "R6", 0)


def test_an_unfinished_hand_keeps_its_seed_secret():
    match = new_match(2, 100, seed=bytes(32))
    record = match_to_record(match)
    assert "seed" not in record["hands"][0]
    assert record["hands"][0]["seed_sha256"]
