"""Playing against bots through the API: each bot move is a task scheduled on commit
(tasks run inline in tests), and the bot acts only on its own turn (R16, R29, R31)."""

import random

import pytest

from tables.models import Move, Table
from tests.support.api import create_table, play_one, table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seats", "others"),
    [(2, ["garabato"]), (3, ["nino", "garabato"]), (4, ["garabato", "nino", "garabato"])],
)
def test_it_plays_a_match_against_bots_to_the_end(
    seats, others, api_client_for, alice, django_capture_on_commit_callbacks
):
    client = api_client_for(alice)
    rng = random.Random(seats)
    with django_capture_on_commit_callbacks(execute=True):
        created = create_table(client, seats, others, target=50)
    for _ in range(500):
        state = table(client, created["id"])
        if state["status"] != "playing":
            break
        assert state["your_turn"], "the bots must have played up to alice's turn"
        with django_capture_on_commit_callbacks(execute=True):
            assert play_one(client, state, rng).status_code == 200
    assert state["status"] == "finished"
    assert state["outcome"] == "target"
    assert max(state["game"]["scores"]) >= 50
    bot_moves = Move.objects.filter(table_id=created["id"], automatic=False).exclude(seat=0)
    assert bot_moves.exists()


def test_a_bot_task_for_an_old_version_does_nothing(api_client_for, alice):
    from tables import services

    created = create_table(api_client_for(alice), 2, ["garabato"])
    table_row = Table.objects.get(pk=created["id"])
    assert services.bot_play(table_id=table_row.pk, version=table_row.version - 1) is False
    assert Table.objects.get(pk=created["id"]).version == table_row.version


def test_the_log_rebuilds_the_snapshot(api_client_for, alice, django_capture_on_commit_callbacks):
    from dominoes import match_from_dict
    from tables.selectors import match_from_log

    client = api_client_for(alice)
    rng = random.Random(11)
    for _ in range(5):  # a match can end in its first hand: then take another table
        with django_capture_on_commit_callbacks(execute=True):
            created = create_table(client, 3, ["garabato", "nino"], target=100)
        for _ in range(60):
            state = table(client, created["id"])
            if state["status"] != "playing" or state["game"]["hand_number"] >= 1:
                break
            with django_capture_on_commit_callbacks(execute=True):
                play_one(client, state, rng)
        row = Table.objects.get(pk=created["id"])
        if len(row.state["hands"]) >= 2:
            break
    snapshot = match_from_dict(row.state)
    rebuilt = match_from_log(row)
    assert len(rebuilt.hands) >= 2
    assert (
        rebuilt.hands[-len(snapshot.hands) :] == snapshot.hands
    )  # the snapshot keeps the last hands
    assert rebuilt.scores == snapshot.scores
