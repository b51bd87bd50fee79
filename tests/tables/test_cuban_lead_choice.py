"""Cuban: after a hand the pair that won leads with either partner. When alice's partner
is a bot, the bot waits for her to choose, even when the hand's turn is the bot's (it
went out): no bot move until alice leads or lets it lead (a ``pass`` before the lead);
her move time runs meanwhile (R27)."""

import random

import pytest

from tables import services
from tables.models import Move, Table
from tests.support.api import play_one, table

pytestmark = pytest.mark.django_db


def _hand_the_bot_would_lead(client, capture, rng: random.Random) -> dict:
    """alice (seat 0, Garabato her partner at seat 2, Nino and Garabato against them)
    plays cuban tables until a hand begins whose lead is her pair's and whose turn is
    her bot partner's; the state she sees then."""
    for _ in range(40):
        with capture(execute=True):
            response = client.post(
                "/api/v1/tables/",
                {"rules": "cuban", "seats": 4, "others": ["nino", "garabato", "garabato"]},
                format="json",
            )
        assert response.status_code == 201, response.json()
        table_id = response.json()["id"]
        for _ in range(400):
            state = table(client, table_id)
            game = state["game"]
            if state["status"] != "playing":
                break
            if game["hand_number"] >= 1 and not game["line"] and game["turn"] == 2:
                return state
            assert state["your_turn"], "the bots must have played up to alice's turn"
            with capture(execute=True):
                assert play_one(client, state, rng).status_code == 200
    raise AssertionError("no hand began with the lead on alice's bot partner")


@pytest.mark.parametrize("choice", ["alice", "partner"])
def test_the_bot_partner_waits_for_alice_to_choose_who_leads(
    choice, api_client_for, alice, generous_rates, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    client = api_client_for(alice)
    state = _hand_the_bot_would_lead(client, capture, random.Random(3))
    game = state["game"]
    assert game["lead_seats"] == [2, 0] and state["your_turn"]  # alice chooses
    row = Table.objects.get(pk=state["id"])
    assert (row.turn_seat, row.deadline is not None) == (0, True)  # her move time runs
    assert services.bot_play(table_id=row.pk, version=row.version) is False  # it waits
    assert not Move.objects.filter(table=row, hand__number=game["hand_number"]).exists()
    with capture(execute=True):
        if choice == "alice":
            response = play_one(client, state, random.Random(3))
        else:
            response = client.post(
                f"/api/v1/tables/{row.pk}/moves/",
                {"action": "pass", "version": state["version"]},
                format="json",
            )
    assert response.status_code == 200, response.json()
    led = Move.objects.filter(table=row, hand__number=game["hand_number"]).first()
    assert (led.seat, led.kind, led.automatic) == ((0 if choice == "alice" else 2), "play", False)
    again = client.post(
        f"/api/v1/tables/{row.pk}/moves/",
        {"action": "pass", "version": table(client, row.pk)["version"]},
        format="json",
    )
    assert again.status_code in (400, 409)  # after the lead a pass is no choice of hers
