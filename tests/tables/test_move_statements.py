"""The move path's writes as SQL (``tables.services.statements``) do what the ORM does, in
one round trip, and the lock's two queries sent together (``rows_together``) read what
they read one at a time (issue 19, "the move path")."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.compiled_queries import STATEMENT_SEPARATOR
from tables.models import Hand, Move, MoveRequest, Seat, Table
from tables.services import locking, statements
from tests.support.api import create_table, join

pytestmark = pytest.mark.django_db


def _two_seats(api_client_for, alice, bob) -> int:
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    return created["id"]


def _columns(row: Model) -> dict:
    return {
        field.attname: getattr(row, field.attname)
        for field in type(row)._meta.concrete_fields
        if not field.primary_key
    }


def test_the_table_update_writes_every_field_as_save_does(api_client_for, alice, bob):
    table = Table.objects.get(pk=_two_seats(api_client_for, alice, bob))
    table.version += 3
    table.turn_seat = None
    table.deadline = table.remind_at = None
    table.state = {**table.state, "marker": ["ñ", 1, None]}
    table.winners = [0]
    statements.send(statements.update(table))
    assert _columns(Table.objects.get(pk=table.pk)) == _columns(table)


def test_the_seats_update_sets_the_fields_named_and_only_them(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    seats = list(Seat.objects.filter(table_id=table_id).order_by("index"))
    for seat in seats:
        seat.list_moved_at = timezone.now() - timedelta(days=seat.index + 1)
        seat.score = 40 + seat.index
    seats[0].list_group = 1
    statements.send(statements.seats_update(seats, ["score", "list_group", "list_moved_at"]))
    assert [_columns(s) for s in Seat.objects.filter(table_id=table_id).order_by("index")] == [
        _columns(s) for s in seats
    ]
    moved = timezone.now() - timedelta(hours=3)
    seats[0].score = seats[1].score = 99  # seat 0 is not sent, seat 1's score not named
    seats[1].list_moved_at = moved
    statements.send(statements.seats_update(seats[1:], ["list_moved_at"]))
    assert Seat.objects.get(pk=seats[1].pk).list_moved_at == moved
    assert [s.score for s in Seat.objects.filter(table_id=table_id).order_by("index")] == [40, 41]


def test_the_inserts_write_what_bulk_create_writes(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    hand = Hand.objects.filter(table_id=table_id).latest("number")
    now = timezone.now()
    common = {"table_id": table_id, "hand": hand, "seat": 0, "created_at": now, "version": 9}
    moves = [
        Move(sequence=90, kind="play", tile="6-6", end=None, automatic=False, **common),
        Move(sequence=91, kind="pass", tile="", end=None, automatic=True, **common),
    ]
    statements.send(statements.moves_insert(moves))
    written = Move.objects.filter(table_id=table_id, sequence__gte=90).order_by("sequence")
    assert [_columns(move) for move in written] == [_columns(move) for move in moves]
    assert all(move.pk is None for move in moves)  # nothing read back

    before = timezone.now()
    answer = MoveRequest(
        user=alice, table_id=table_id, key="k-1", request_hash="ab", status_code=200,
        body={"id": table_id, "detail": "¿sí?", "moves": [None, 1.5]},
    )  # fmt: skip
    statements.send(statements.insert(MoveRequest, [answer]))
    stored = MoveRequest.objects.get(user=alice, key="k-1")
    assert stored.body == answer.body and stored.status_code == 200
    assert before <= stored.created_at <= timezone.now()  # dated as auto_now_add does


@pytest.mark.postgres  # SQLite takes one statement a call: they go one after the other
def test_statements_sent_together_are_one_round_trip_in_their_order(api_client_for, alice, bob):
    table = Table.objects.get(pk=_two_seats(api_client_for, alice, bob))
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    table.version += 1
    for seat in seats:
        seat.score = 7
    with CaptureQueriesContext(connection) as queries:
        statements.send(
            statements.update(table),
            statements.seats_update(seats, ["score"]),
            statements.seen_update(table.pk, alice.pk, table.version),
        )
    assert len(queries) == 1
    assert queries[0]["sql"].count(STATEMENT_SEPARATOR) == 2
    assert Table.objects.get(pk=table.pk).version == table.version
    assert set(Seat.objects.filter(table=table).values_list("score", flat=True)) == {7}
    assert Seat.objects.get(table=table, user=alice).seen_version == table.version
    assert Seat.objects.get(table=table, user=bob).seen_version < table.version


@pytest.mark.postgres
def test_the_lock_and_the_seats_come_in_one_round_trip(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = locking.lock_for_move(table_id, bob)
        assert len(queries) == 1
        assert "FOR UPDATE" in queries[0]["sql"].split(STATEMENT_SEPARATOR)[0]
    assert _columns(locked.table) == _columns(Table.objects.get(pk=table_id))
    expected = Seat.objects.filter(table_id=table_id).order_by("index")
    assert [_columns(seat) for seat in locked.seats] == [_columns(seat) for seat in expected]
    assert [seat.user for seat in locked.seats] == [alice, bob]
    assert (
        locked.table.current_hand_id == Hand.objects.filter(table_id=table_id).latest("number").pk
    )
    with transaction.atomic(), pytest.raises(Exception) as missing:
        locking.lock_for_move(table_id + 1000, bob)
    assert getattr(missing.value, "code", None) == "not_found"
