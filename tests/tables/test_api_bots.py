"""Playing against bots through the API: each bot move is a task scheduled on commit
(tasks run inline in tests), and the bot acts only on its own turn (R16, R29, R31)."""

import random

import pytest

from tables import services
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


def test_a_bot_partner_does_not_take_the_lead_from_alice_at_cuban(
    api_client_for, alice, django_capture_on_commit_callbacks
):
    """Cuban: the pair that won the hand leads with either partner, and the hand's turn is
    the seat that went out (the lower seat of the pair after a block). When that seat is
    alice's, her bot partner (who may lead too) waits for her: the page tells her she
    leads, so the lead is hers, with her move time running; the bot plays when its turn
    comes (the last look saw the bot lead a second after the page said "you lead")."""
    client = api_client_for(alice)
    rng = random.Random(20)
    found = None
    for _ in range(8):  # until a hand that alice's pair leads begins on her turn
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/api/v1/tables/",
                {"rules": "cuban", "seats": 4, "others": ["garabato", "nino", "garabato"]},
                format="json",
            )
        assert response.status_code == 201, response.json()
        created = response.json()
        for _ in range(400):
            state = table(client, created["id"])
            game = state["game"]
            if state["status"] != "playing":
                break
            assert state["your_turn"], "the bots must have played up to alice's turn"
            if game["hand_number"] >= 1 and not game["line"] and game.get("lead_seats"):
                found = state
                break
            with django_capture_on_commit_callbacks(execute=True):
                assert play_one(client, state, rng).status_code == 200
        if found:
            break
    assert found is not None, "no hand led by alice's pair began on her turn"
    game = found["game"]
    assert game["lead_seats"] == [0, 2] and game["turn"] == 0
    assert found["deadline"] is not None  # her move time runs
    row = Table.objects.get(pk=found["id"])
    assert services.bot_play(table_id=row.pk, version=row.version) is False  # the bot waits
    with django_capture_on_commit_callbacks(execute=True):
        assert play_one(client, found, rng).status_code == 200
    after = table(client, found["id"])["game"]
    assert after["line"] and after["hand_number"] == game["hand_number"]
    led = Move.objects.filter(table_id=found["id"], hand__number=game["hand_number"]).first()
    assert led.seat == 0  # alice led; then the others played up to her turn again
