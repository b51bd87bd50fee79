"""``seven_plus_seven`` (issue 8, docs/profiles.md): the pairs game for two people, each
playing both hands of one pair.

alice creates the table and holds seats 0 and 2; bob takes the share link and holds
seats 1 and 3 (or Nino sits at both); mallory is refused everywhere. Each person sees
both of their own hands and nothing of the other pair's (R31), moves for whichever hand
is to act, and a move for the other hand is refused as out of turn.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from django.db import IntegrityError, transaction

from dominoes import match_from_dict
from tables import services
from tables.models import Seat, Table
from tests.support.api import replay, table

pytestmark = pytest.mark.django_db

RULES = "seven_plus_seven"


def create_7p7(client, other: str = "friend") -> dict:
    response = client.post(
        "/api/v1/tables/",
        {"rules": RULES, "seats": 4, "target": 150, "others": [other]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def two_people(api_client_for, creator, friend) -> tuple[int, dict]:
    """A started table: ``creator`` at 0 and 2, ``friend`` at 1 and 3; seat -> client."""
    created = create_7p7(api_client_for(creator))
    token = created["invites"][0]["token"]
    joined = api_client_for(friend).post(f"/api/v1/invites/{token}/join/")
    assert joined.status_code == 200, joined.json()
    first, second = api_client_for(creator), api_client_for(friend)
    return created["id"], {0: first, 2: first, 1: second, 3: second}


def move(client, state: dict, play: dict, **extra):
    body = {"tile": play["tile"], "end": play["end"], "version": state["version"], **extra}
    return client.post(f"/api/v1/tables/{state['id']}/moves/", body, format="json")


def holdings(table_id: int):
    return match_from_dict(Table.objects.get(pk=table_id).state).hand.holdings


def test_alice_creates_a_table_and_holds_seats_0_and_2(api_client_for, alice):
    created = create_7p7(api_client_for(alice))

    assert (created["status"], created["rules"], created["seats"]) == ("waiting", RULES, 4)
    assert created["your_seats"] == [0, 2] and created["your_seat"] == 0
    # One link, for the whole rival pair.
    assert [(i["seat"], i["hands"], i["partner"]) for i in created["invites"]] == [
        (1, [1, 3], False)
    ]
    names = [(p["seat"], p["name"], p["open"]) for p in created["players"]]
    assert names == [(0, "alice", False), (1, "", True), (2, "alice", False), (3, "", True)]
    rows = Seat.objects.filter(table_id=created["id"]).order_by("index")
    assert [(s.user_id, s.second_hand, bool(s.invite_token)) for s in rows] == [
        (alice.pk, False, False),
        (None, False, True),
        (alice.pk, True, False),
        (None, False, False),
    ]


def test_bob_joins_with_the_link_and_takes_both_seats_of_the_other_pair(api_client_for, alice, bob):
    created = create_7p7(api_client_for(alice))
    token = created["invites"][0]["token"]
    preview = api_client_for(bob).get(f"/api/v1/invites/{token}/").json()
    assert (preview["seat"], preview["hands"], preview["rules"]) == (1, [1, 3], RULES)

    joined = api_client_for(bob).post(f"/api/v1/invites/{token}/join/")

    assert joined.status_code == 200, joined.json()
    state = joined.json()
    assert state["status"] == "playing"  # every seat is held: the match starts (R30)
    assert state["your_seats"] == [1, 3]
    assert [p["name"] for p in state["players"]] == ["alice", "bob", "alice", "bob"]
    assert [p["team"] for p in state["players"]] == [0, 1, 0, 1]
    rows = Seat.objects.filter(table_id=created["id"]).order_by("index")
    assert [(s.user_id, s.second_hand) for s in rows] == [
        (alice.pk, False),
        (bob.pk, False),
        (alice.pk, True),
        (bob.pk, True),
    ]
    # My tables: the table once, my seats both.
    listing = api_client_for(bob).get("/api/v1/tables/").json()["results"]
    assert [(row["id"], row["your_seats"]) for row in listing] == [(created["id"], [1, 3])]
    assert listing[0]["rules"] == "seven_plus_seven"


def test_the_creator_cannot_take_the_rival_pair_too(api_client_for, alice):
    created = create_7p7(api_client_for(alice))
    token = created["invites"][0]["token"]

    reply = api_client_for(alice).post(f"/api/v1/invites/{token}/join/")

    assert (reply.status_code, reply.json()["code"]) == (409, "already_seated")
    assert Table.objects.get(pk=created["id"]).status == "waiting"


def test_seat_3_has_no_link_of_its_own(api_client_for, alice):
    created = create_7p7(api_client_for(alice))

    reply = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/invites/3/renew/")

    assert (reply.status_code, reply.json()["code"]) == (404, "invite_not_found")
    renewed = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/invites/1/renew/")
    assert renewed.status_code == 200
    assert [i["hands"] for i in renewed.json()["invites"]] == [[1, 3]]


def test_mallory_cannot_join_read_or_move(api_client_for, alice, bob, mallory):
    created = create_7p7(api_client_for(alice))
    token = created["invites"][0]["token"]
    table_id, clients = two_people_from(api_client_for, created, bob)
    intruder = api_client_for(mallory)

    joined = intruder.post(f"/api/v1/invites/{token}/join/")
    assert (joined.status_code, joined.json()["code"]) == (404, "invite_not_found")
    for path in ("", "moves/", "record/"):
        reply = intruder.get(f"/api/v1/tables/{table_id}/{path}")
        assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    state = table(clients[0], table_id)
    turn = state["turn_seat"]
    play = table(clients[turn], table_id)["game"]["legal_moves"][0]
    for seat in (None, turn):
        extra = {} if seat is None else {"seat": seat}
        reply = move(intruder, state, play, **extra)
        assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    reply = intruder.post(f"/api/v1/tables/{table_id}/abandon/")
    assert (reply.status_code, reply.json()["code"]) == (404, "not_found")
    assert intruder.get("/api/v1/tables/").json()["results"] == []
    assert Table.objects.get(pk=table_id).version == state["version"]


def two_people_from(api_client_for, created, friend) -> tuple[int, dict]:
    token = created["invites"][0]["token"]
    assert api_client_for(friend).post(f"/api/v1/invites/{token}/join/").status_code == 200
    first = api_client_for(Table.objects.get(pk=created["id"]).creator)
    second = api_client_for(friend)
    return created["id"], {0: first, 2: first, 1: second, 3: second}


def test_each_person_sees_both_own_hands_and_which_one_plays(api_client_for, alice, bob):
    table_id, clients = two_people(api_client_for, alice, bob)
    dealt = holdings(table_id)

    for client, mine in ((clients[0], [0, 2]), (clients[1], [1, 3])):
        state = table(client, table_id)
        assert state["your_seats"] == mine
        assert [hand["seat"] for hand in state["hands"]] == mine
        for hand in state["hands"]:
            assert sorted(hand["tiles"]) == sorted(str(t) for t in dealt[hand["seat"]])
            assert hand["to_play"] == (hand["seat"] == state["turn_seat"])
            assert bool(hand["legal_moves"]) == hand["to_play"]
        # ``game`` is the view of the hand to play when it is mine, else my first hand.
        expected = state["turn_seat"] if state["turn_seat"] in mine else mine[0]
        assert state["your_seat"] == state["game"]["seat"] == expected
        assert state["your_turn"] == (state["turn_seat"] in mine)
        assert sorted(state["game"]["tiles"]) == sorted(str(t) for t in dealt[expected])


def test_a_move_for_the_hand_not_on_turn_is_refused(api_client_for, alice, bob):
    table_id, clients = two_people(api_client_for, alice, bob)
    state = table(clients[0], table_id)
    turn = state["turn_seat"]
    other = (turn + 2) % 4  # the same person's other hand
    mover = table(clients[turn], table_id)
    idle = next(hand for hand in mover["hands"] if hand["seat"] == other)
    play = {"tile": idle["tiles"][0], "end": None}

    reply = move(clients[turn], mover, play, seat=other)

    assert reply.status_code == 409, reply.json()
    assert (reply.json()["code"], reply.json()["rule"]) == ("not_your_turn", "R3")
    # A seat the caller does not hold at all: a clear 400, nothing played.
    rival = (turn + 1) % 4
    reply = move(clients[turn], mover, mover["game"]["legal_moves"][0], seat=rival)
    assert reply.status_code == 400, reply.json()
    assert reply.json()["code"] == "not_your_seat" and "seat" in reply.json()["fields"]
    assert Table.objects.get(pk=table_id).version == mover["version"]
    # A tile of the other hand, with no seat named: the hand on turn does not hold it,
    # and the message says whose it is and which hand plays now.
    reply = move(clients[turn], mover, play)
    assert reply.status_code == 400, reply.json()
    assert reply.json()["code"] == "tile_not_in_hand"
    assert reply.json()["detail"] == (
        f"Esa ficha es de tu mano del asiento {other + 1}; ahora juega la del asiento {turn + 1}."
    )
    assert Table.objects.get(pk=table_id).version == mover["version"]
    # The same person's move for the hand on turn is played.
    reply = move(clients[turn], mover, mover["game"]["legal_moves"][0], seat=turn)
    assert reply.status_code == 200, reply.json()
    assert reply.json()["game"]["log"][0]["seat"] == turn


def _play_to_the_end(clients, table_id: int, rng: random.Random, *, with_seat: bool) -> dict:
    """Both people play random legal moves until the match ends; returns the last state."""
    for _ in range(2000):
        state = table(clients[0], table_id)
        if state["status"] != "playing":
            return state
        turn = state["turn_seat"]
        mover = table(clients[turn], table_id)
        assert mover["your_turn"] and mover["your_seat"] == turn
        hand = next(h for h in mover["hands"] if h["to_play"])
        assert hand["seat"] == turn and hand["legal_moves"] == mover["game"]["legal_moves"]
        extra = {"seat": turn} if with_seat else {}
        reply = move(clients[turn], mover, rng.choice(hand["legal_moves"]), **extra)
        assert reply.status_code == 200, reply.json()
    raise AssertionError("the match did not end in 2000 moves")


def test_alice_and_bob_play_a_whole_match_to_150(
    generous_rates, api_client_for, client, alice, bob
):
    table_id, clients = two_people(api_client_for, alice, bob)

    state = _play_to_the_end(clients, table_id, random.Random(77), with_seat=True)

    assert (state["status"], state["outcome"]) == ("finished", "target")
    assert state["winners"] in ([0, 2], [1, 3])
    assert max(state["game"]["scores"]) >= 150
    record = clients[1].get(f"/api/v1/tables/{table_id}/record/").json()
    assert record["rules"] == RULES and record["seats"] == 4
    answer = replay(record)
    assert answer["winner"] == state["winners"]
    assert answer["scores"] == state["game"]["scores"]
    for player in (clients[0], clients[1]):
        mine = player.get("/api/v1/tables/").json()["results"][0]
        assert mine["status"] == "finished" and not mine["your_turn"]
    client.force_login(alice)  # the replay names both of her hands in the second person
    page = client.get(f"/mesas/{table_id}/partida/").content.decode()
    found = re.search(r'id="replay-data" type="application/json">(.*?)</script>', page)
    data = json.loads(found[1])
    assert data["your_seats"] == [0, 2] and data["two_hands"] is True
    # Plain names, no bot: the page adds each seat's number as the table page does ("alice
    # (asiento 1)"), read in Chromium by tests/web/test_browser_replay_names.py.
    assert data["players"] == ["alice", "bob"] * 2 and data["bots"] == [False] * 4


def test_against_bots_alice_plays_a_hand_without_naming_the_seat(
    api_client_for, alice, django_capture_on_commit_callbacks
):
    client = api_client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        created = create_7p7(client, "nino")
    assert created["status"] == "playing" and created["invites"] == []
    bots = Seat.objects.filter(table_id=created["id"]).order_by("index")
    assert [s.bot for s in bots] == ["", "nino", "", "nino"]
    rng = random.Random(5)
    seen = set()
    for _ in range(60):
        state = table(client, created["id"])
        if state["game"]["last_hand"] is not None or state["status"] != "playing":
            break
        assert state["your_turn"], state  # the bots played up to one of alice's hands
        seen.add(state["your_seat"])
        with django_capture_on_commit_callbacks(execute=True):
            reply = move(client, state, rng.choice(state["game"]["legal_moves"]))
        assert reply.status_code == 200, reply.json()
    assert table(client, created["id"])["game"]["last_hand"] is not None
    assert seen == {0, 2}  # alice played with both hands


def test_abandoning_abandons_the_pair(api_client_for, alice, bob):
    table_id, clients = two_people(api_client_for, alice, bob)

    reply = clients[1].post(f"/api/v1/tables/{table_id}/abandon/")

    assert reply.status_code == 200, reply.json()
    state = reply.json()
    assert (state["status"], state["outcome"], state["winners"]) == (
        "finished",
        "abandoned",
        [0, 2],
    )
    assert state["game"]["abandoned_by"] in (1, 3)


def test_a_waiting_table_closes_when_its_creator_leaves(api_client_for, alice):
    created = create_7p7(api_client_for(alice))

    reply = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/abandon/")

    assert (reply.json()["status"], reply.json()["invites"]) == ("closed", [])


def test_only_seven_plus_seven_lets_one_person_hold_two_seats(alice, bob):
    """The constraints: one plain seat per person per table, at most one second hand,
    a second hand only at seat 2 or 3 and held by a person."""
    classic = services.table_create(creator=alice, seats=4, others=["friend"] * 3)
    seat_1 = Seat.objects.get(table=classic, index=1)
    seat_1.user = alice
    with pytest.raises(IntegrityError), transaction.atomic():
        seat_1.save()
    seat_1.refresh_from_db()
    seat_1.user, seat_1.second_hand, seat_1.invite_token = bob, True, None
    with pytest.raises(IntegrityError), transaction.atomic():
        seat_1.save()  # a second hand at seat 1
    seat_3 = Seat.objects.get(table=classic, index=3)
    seat_3.second_hand, seat_3.invite_token = True, None
    with pytest.raises(IntegrityError), transaction.atomic():
        seat_3.save()  # a second hand nobody holds
    # The service never seats one person twice elsewhere: alice cannot take her own link.
    token = Seat.objects.get(table=classic, index=2).invite_token
    with pytest.raises(services.TableError) as refused:
        services.seat_join(token=token, user=alice)
    assert refused.value.code == "already_seated"
