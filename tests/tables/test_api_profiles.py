"""Rule profiles at the table (issue 8): a table is created with a profile, plays by it,
and exports a record that replays under it."""

import random

import pytest

from dominoes.rules import PROFILES
from tables import services
from tables.models import Table
from tests.support.api import create_table, replay, table

pytestmark = pytest.mark.django_db


def _play(client, state: dict, rng: random.Random):
    game = state["game"]
    if game["legal_moves"]:
        move = rng.choice(game["legal_moves"])
        body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
    else:
        body = {"action": rng.choice(game["choices"]), "version": state["version"]}
    return client.post(f"/api/v1/tables/{state['id']}/moves/", body, format="json")


@pytest.mark.parametrize(
    ("rules", "seats", "target", "others"),
    [
        ("international", 4, 200, ["garabato", "nino", "garabato"]),
        ("spain_pairs", 4, 150, ["nino", "garabato", "nino"]),
        ("seven_plus_seven", 4, 150, ["nino"]),  # the rival pair: Nino at seats 1 and 3
        ("venezuelan", 4, 100, ["garabato", "garabato", "garabato"]),
        ("two_player", 2, 100, ["garabato"]),
        ("three_player", 3, None, ["garabato", "nino"]),
        ("cuban", 4, 100, ["garabato", "nino", "garabato"]),
        ("first_double", 2, None, ["garabato"]),
    ],
)
def test_it_plays_a_hand_of_each_profile_against_bots(
    rules, seats, target, others, api_client_for, alice, django_capture_on_commit_callbacks
):
    client = api_client_for(alice)
    body = {"seats": seats, "others": others, "rules": rules}
    if target is not None:
        body["target"] = target
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/tables/", body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["rules"] == rules
    assert created["target"] == (target or PROFILES[rules].targets[0])
    rng = random.Random(rules)
    for _ in range(200):
        state = table(client, created["id"])
        if state["game"]["last_hand"] is not None or state["status"] != "playing":
            break
        assert state["your_turn"], state
        with django_capture_on_commit_callbacks(execute=True):
            response = _play(client, state, rng)
        assert response.status_code == 200, response.json()
    state = table(client, created["id"])
    assert state["game"]["last_hand"] is not None
    record = client.get(f"/api/v1/tables/{created['id']}/record/").json()
    assert record["rules"] == rules
    assert replay(record)["scores"] == state["game"]["scores"]


@pytest.mark.parametrize(
    "body",
    [
        {"seats": 2, "target": 200, "others": ["nino"], "rules": "international"},
        {"seats": 4, "target": 100, "others": ["nino"] * 3, "rules": "international"},
        {"seats": 2, "target": 100, "others": ["nino"], "rules": "no-such-rules"},
        # seven_plus_seven names the rival pair once (seats 1 and 3), its target is 150.
        {"seats": 4, "target": 150, "others": ["nino"] * 3, "rules": "seven_plus_seven"},
        {"seats": 4, "target": 150, "others": ["nino", "nino"], "rules": "seven_plus_seven"},
        {"seats": 4, "target": 100, "others": ["friend"], "rules": "seven_plus_seven"},
        {"seats": 2, "target": 150, "others": ["friend"], "rules": "seven_plus_seven"},
    ],
)
def test_it_refuses_what_a_profile_does_not_allow(body, api_client_for, alice):
    response = api_client_for(alice).post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] in ("invalid_table", "invalid")
    assert Table.objects.count() == 0


def test_classic_tables_refuse_draw_and_pass_choices(api_client_for, alice):
    created = create_table(api_client_for(alice), 2, ["garabato"])
    state = table(api_client_for(alice), created["id"])
    response = api_client_for(alice).post(
        f"/api/v1/tables/{created['id']}/moves/",
        {"action": "pass", "version": state["version"]},
        format="json",
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json().get("rule")) == ("invalid", "R16")


def test_every_engine_profile_is_offered_seven_plus_seven_included():
    assert services.offered_profiles()[0] == "classic"
    assert services.offered_profiles() == list(PROFILES)
    assert "seven_plus_seven" in services.offered_profiles()


def test_first_double_goes_on_without_a_player_who_abandons(
    api_client_for, alice, django_capture_on_commit_callbacks
):
    """seeds/001 (docs/profiles.md): with at least two players left the hand goes on; the
    leaver cannot win, and the record says where it left (``left``)."""
    client = api_client_for(alice)
    body = {"seats": 3, "others": ["garabato", "nino"], "rules": "first_double"}
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post("/api/v1/tables/", body, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/tables/{created['id']}/abandon/")
    assert response.status_code == 200, response.json()
    state = table(client, created["id"])
    assert state["status"] == "finished"  # the bots played the hand to its end
    assert state["outcome"] == "target" and state["winners"] in ([1], [2])
    assert state["game"]["last_hand"] is not None
    again = client.post(f"/api/v1/tables/{created['id']}/abandon/")
    assert again.status_code == 409
    record = client.get(f"/api/v1/tables/{created['id']}/record/").json()
    assert record["hands"][0]["left"][0]["seat"] == 0
    answer = replay(record)
    assert answer["hands"][0]["left"] == [0] and answer["winner"] == state["winners"]


def test_first_double_goes_on_without_an_absent_player(
    api_client_for, alice, django_capture_on_commit_callbacks
):
    """R27 in first_double: the absent seat sits out and the bots finish the hand."""
    from datetime import timedelta

    client = api_client_for(alice)
    body = {"seats": 3, "others": ["garabato", "nino"], "rules": "first_double"}
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post("/api/v1/tables/", body, format="json").json()
    row = Table.objects.get(pk=created["id"])
    assert row.status == Table.Status.PLAYING and row.turn_seat == 0  # bots played up to her
    later = row.deadline + timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.table_forfeit_overdue(table_id=row.pk, now=later)
    row.refresh_from_db()
    assert row.status == Table.Status.FINISHED and row.outcome == "target"
    assert row.winners and 0 not in row.winners


def test_first_double_a_move_meeting_another_seats_absence_is_stale_and_the_hand_goes_on(
    api_client_for, alice, bob, django_capture_on_commit_callbacks
):
    """R27 under leavers_sit_out, met by the other player's move: the absent seat sits
    out (the expiry is kept) and the mover is told the table changed (409 stale_version)."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.support.api import join

    body = {"seats": 3, "others": ["friend", "garabato"], "rules": "first_double"}
    with django_capture_on_commit_callbacks(execute=True):
        created = api_client_for(alice).post("/api/v1/tables/", body, format="json").json()
        join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    row = Table.objects.get(pk=created["id"])
    assert row.status == Table.Status.PLAYING and row.turn_seat in clients
    absent, mover = row.turn_seat, 1 - row.turn_seat
    version = table(clients[mover], row.pk)["version"]
    Table.objects.filter(pk=row.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        response = clients[mover].post(
            f"/api/v1/tables/{row.pk}/moves/", {"tile": "0-0", "version": version}, format="json"
        )
    assert response.status_code == 409 and response.json()["code"] == "stale_version"
    state = table(clients[mover], row.pk)
    assert state["game"]["left_seats"] == [absent]
    assert state["outcome"] != "absent" and state["version"] > version
