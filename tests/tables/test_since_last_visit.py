"""Since your last visit (issue 16): each seat's last-read version is kept (any read of the
table by that player: GET, a move's answer, the page), the next read lists the public
moves made since, and "my tables" says which tables changed. A poll that finds nothing
new writes nothing."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Move, Seat, Table
from tests.support.api import create_table, join, play_one, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_seats(api_client_for, alice, bob, django_capture_on_commit_callbacks):
    """alice (creator), bob (friend) and Nino, started; bots move inline."""
    alice_api, bob_api = api_client_for(alice), api_client_for(bob)
    with django_capture_on_commit_callbacks(execute=True):
        created = create_table(alice_api, 3, ["friend", "nino"])
        join(bob_api, created["invites"][0]["token"])
    return created["id"], {0: alice_api, 1: bob_api}


def _move(clients, table_id, seat, rng, capture):
    with capture(execute=True):
        response = play_one(clients[seat], table(clients[seat], table_id), rng)
    assert response.status_code == 200, response.json()


def test_alice_comes_back_to_the_public_moves_made_since_her_last_read(
    three_seats, alice, django_capture_on_commit_callbacks
):
    table_id, clients = three_seats
    rng = random.Random(7)
    seen = table(clients[0], table_id)["version"]  # alice reads the table
    assert Seat.objects.get(table_id=table_id, user=alice).seen_version == seen
    others = 0
    for _ in range(60):
        state = table(clients[1], table_id)  # bob's reads do not move alice's
        if state["status"] != "playing" or state["game"]["hand_number"] > 0:
            break
        if state["turn_seat"] == 0:
            if others:
                break
            _move(clients, table_id, 0, rng, django_capture_on_commit_callbacks)
            seen = Seat.objects.get(table_id=table_id, user=alice).seen_version
            continue
        _move(clients, table_id, 1, rng, django_capture_on_commit_callbacks)
        others += 1
    assert others
    expected = list(
        Move.objects.filter(table_id=table_id, version__gt=seen)
        .order_by("hand__number", "sequence")
        .values_list("hand__number", "sequence", "seat", "kind")
    )
    # Others' moves, and alice's own automatic draws and passes (R16) made in their writes.
    assert any(seat != 0 for _hand, _seq, seat, _kind in expected)

    back = table(clients[0], table_id)
    since = back["since_your_last_visit"]
    assert since["from_version"] == seen
    got = [(m["hand"], m["sequence"], m["seat"], m["kind"]) for m in since["moves"]]
    assert got == expected
    # Only public moves, from alice's view: what her own move log shows, and no tile of
    # another seat's draw (her own automatic draws show her the tile she drew).
    public = clients[0].get(f"/api/v1/tables/{table_id}/moves/").json()
    for move in since["moves"]:
        assert move in public
        if move["kind"] == "draw" and move["seat"] != 0:
            assert move["tile"] is None

    again = table(clients[0], table_id)  # read again: nothing new
    assert again["since_your_last_visit"] == {"from_version": back["version"], "moves": []}


def test_a_poll_that_finds_nothing_new_writes_nothing(three_seats):
    table_id, clients = three_seats
    first = clients[0].get(f"/api/v1/tables/{table_id}/")
    with CaptureQueriesContext(connection) as queries:
        unchanged = clients[0].get(
            f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=first.headers["ETag"]
        )
    assert unchanged.status_code == 304
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]
    with CaptureQueriesContext(connection) as queries:
        clients[0].get(f"/api/v1/tables/{table_id}/")
    updates = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]
    # The seats read with the table show this version seen already: no UPDATE is sent.
    assert updates == []
    assert Seat.objects.get(table_id=table_id, index=0).seen_version == first.json()["version"]


def test_my_tables_says_which_tables_changed_since_my_last_read(
    three_seats, django_capture_on_commit_callbacks
):
    table_id, clients = three_seats
    rng = random.Random(3)

    def changed(seat):
        rows = clients[seat].get("/api/v1/tables/").json()["results"]
        return next(row for row in rows if row["id"] == table_id)["changed_since_your_last_visit"]

    for _ in range(10):  # up to alice's turn (bob, then Nino on commit, move before)
        if table(clients[0], table_id)["turn_seat"] == 0:
            break
        _move(clients, table_id, 1, rng, django_capture_on_commit_callbacks)
    table(clients[0], table_id)
    table(clients[1], table_id)
    assert (changed(0), changed(1)) == (False, False)
    with django_capture_on_commit_callbacks(execute=True):
        answer = play_one(clients[0], table(clients[0], table_id), rng)
    assert answer.status_code == 200, answer.json()
    # The move's answer is a read. If bob had to pass (R16), Nino moved on commit after
    # that answer was written, and then the table did change since alice's last read.
    after_answer = Table.objects.get(id=table_id).version > answer.json()["version"]
    assert changed(0) is after_answer
    assert changed(1) is True
