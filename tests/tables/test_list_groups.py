"""Each player's seat row keeps its table's place in their "my tables" list
(``Seat.list_group``, ``Seat.list_moved_at``, written by the services:
``transitions.list_rows``), and the list a player reads follows the tables as they change: a
move, a hand's end, a match's end, an abandonment (of a running and of a waiting table),
a join that starts a match and one that does not, a two-hand player's turn at either
hand (``seven_plus_seven``).

After every step the stored places are checked against the tables themselves, and each
player's list (read page by page through the API) against the order computed here from
the Table rows alone: their turn first, then playing, waiting, over; each group by last
move (the tables that are over by when they ended), newest first."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings

from tables import services
from tables.models import Seat, Table
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import H24, H48, MINUTE, T0

pytestmark = pytest.mark.django_db

GROUP = {"my_turn": 0, "playing": 1, "waiting": 2, "over": 3}


def _listed_at(row: Table):
    """When ``row`` is listed in its group: its last move, or its end once over."""
    return row.finished_at if row.status in ("finished", "closed") else row.last_move_at


def _expected_order(user) -> list[int]:
    """``user``'s tables in list order, from the Table rows (not the seats' list places)."""
    keys = []
    for row in Table.objects.filter(seat_set__user=user).distinct():
        mine = set(Seat.objects.filter(table=row, user=user).values_list("index", flat=True))
        if row.status == "playing":
            group = GROUP["my_turn"] if row.turn_seat in mine else GROUP["playing"]
        else:
            group = GROUP["waiting"] if row.status == "waiting" else GROUP["over"]
        keys.append((group, -_listed_at(row).timestamp(), -row.pk))
    return [-key[2] for key in sorted(keys)]


def _seen_order(client) -> list[int]:
    """The list as the player reads it, two tables a page (so cursors are used)."""
    seen, url = [], "/api/v1/tables/?page_size=2"
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.json()
        seen += [row["id"] for row in response.json()["results"]]
        url = response.json()["next"]
    return seen


def _check(api_client_for, *users) -> None:
    for seat in Seat.objects.select_related("table").exclude(user=None):
        row = seat.table
        mine = set(
            Seat.objects.filter(table=row, user_id=seat.user_id).values_list("index", flat=True)
        )
        playing = row.status == "playing"
        expected = (
            (0 if row.turn_seat in mine else 1)
            if playing
            else (2 if row.status == "waiting" else 3)
        )
        assert (seat.list_group, seat.list_moved_at) == (expected, _listed_at(row)), (
            seat.pk,
            row.status,
            row.turn_seat,
        )
    for user in users:
        assert _seen_order(api_client_for(user)) == _expected_order(user), user.username


def _play(clients, table_id: int, rng: random.Random) -> dict:
    """The seat to act plays one random legal move; returns the mover's answer."""
    turn = table(clients[0], table_id)["turn_seat"]
    state = table(clients[turn], table_id)
    response = play_one(clients[turn], state, rng)
    assert response.status_code == 200, response.json()
    return response.json()


def test_the_list_follows_moves_hands_matches_abandonments_and_joins(
    api_client_for, alice, bob, carol, generous_rates
):
    rng = random.Random(19)
    people = (alice, bob, carol)
    a, b, c = (api_client_for(user) for user in people)
    # a join that starts the match
    first = create_table(a, 2, ["friend"], target=100)
    _check(api_client_for, *people)
    join(b, first["invites"][0]["token"])
    _check(api_client_for, *people)
    # a join that does not start it (one seat of three is still open)
    waiting = create_table(b, 3, ["friend", "friend"], target=50)
    join(a, waiting["invites"][0]["token"])
    _check(api_client_for, *people)
    # a waiting table abandoned by its creator: closed, over in their list
    abandoned_waiting = create_table(c, 2, ["friend"])
    services.table_abandon(table_id=abandoned_waiting["id"], user=carol)
    _check(api_client_for, *people)
    clients = {0: a, 1: b}
    # moves: the turn goes back and forth
    for _ in range(3):
        _play(clients, first["id"], rng)
        _check(api_client_for, *people)
    # to the end of a hand (the next is dealt at once), then of the match
    hand = table(a, first["id"])["game"]["hand_number"]
    while (state := table(a, first["id"]))["game"]["hand_number"] == hand:
        assert state["status"] == "playing", state["game"]["scores"]
        _play(clients, first["id"], rng)
    assert state["status"] == "playing"  # a hand ended, the match goes on
    _check(api_client_for, *people)
    while table(a, first["id"])["status"] == "playing":
        _play(clients, first["id"], rng)
        _check(api_client_for, alice, bob)
    assert table(a, first["id"])["status"] == "finished"
    _check(api_client_for, *people)
    # a running match abandoned: finished, over for both
    running = create_table(c, 2, ["friend"])
    join(a, running["invites"][0]["token"])
    _check(api_client_for, *people)
    services.table_abandon(table_id=running["id"], user=alice)
    assert table(c, running["id"])["status"] == "finished"
    _check(api_client_for, *people)
    # the waiting table's last seat: the match starts
    join(c, waiting["invites"][1]["token"])
    _check(api_client_for, *people)


def test_a_two_hand_player_sees_their_turn_first_at_either_hand(api_client_for, alice, bob):
    rng = random.Random(7)
    first, second = api_client_for(alice), api_client_for(bob)
    # another table where it is alice's turn: the pairs table comes before it only while
    # one of alice's two hands is to act there (else it is merely playing)
    made = create_table(first, 2, ["friend"])
    other = made["id"]
    join(second, made["invites"][0]["token"])
    while table(first, other)["turn_seat"] != 0:
        _play({0: first, 1: second}, other, rng)
    created = first.post(
        "/api/v1/tables/",
        {"rules": "seven_plus_seven", "seats": 4, "target": 150, "others": ["friend"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    table_id = created.json()["id"]
    join(second, created.json()["invites"][0]["token"])
    clients = {0: first, 2: first, 1: second, 3: second}
    turns = set()
    for _ in range(10):
        _check(api_client_for, alice, bob)
        turn = table(first, table_id)["turn_seat"]
        turns.add(turn)
        expected = table_id if turn in (0, 2) else other
        assert _seen_order(first)[0] == expected, turn
        _play(clients, table_id, rng)
    assert {0, 2} <= turns or {1, 3} <= turns, turns  # a pair's second hand was to act


def test_ended_tables_are_listed_by_when_they_ended_not_by_their_last_move(
    api_client_for, alice, bob, carol
):
    """Among the tables that are over, the one that ended last comes first: a match lost
    by absence (R27) two days after its last move, and a table closed as idle (R28) a
    week after its creation, come before one bob abandoned in between (R26), although
    their last moves are older."""
    a = api_client_for(alice)
    with time_machine.travel(T0, tick=False) as clock:
        absent = create_table(a, 2, ["friend"])
        join(api_client_for(bob), absent["invites"][0]["token"])
        idle = create_table(a, 2, ["friend"])  # nobody else ever sits down
        clock.move_to(T0 + H24)
        abandoned = create_table(a, 2, ["friend"])
        join(api_client_for(carol), abandoned["invites"][0]["token"])
        clock.move_to(T0 + H24 + MINUTE)
        services.table_abandon(table_id=abandoned["id"], user=carol)
        clock.move_to(T0 + H48 + MINUTE)  # the first turn's 48 hours are gone
        assert services.table_forfeit_overdue(table_id=absent["id"])
        clock.move_to(T0 + timedelta(seconds=settings.IDLE_SECONDS) + H24)
        assert services.table_close_idle(table_id=idle["id"])
    ended = {row.pk: row for row in Table.objects.all()}
    assert ended[absent["id"]].last_move_at < ended[abandoned["id"]].last_move_at
    assert {row.status for row in ended.values()} == {"finished", "closed"}
    assert _seen_order(a) == [idle["id"], absent["id"], abandoned["id"]]
    for seat in Seat.objects.exclude(user=None).select_related("table"):
        assert seat.list_moved_at == seat.table.finished_at, seat.table_id
