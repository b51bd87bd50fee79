"""The hot reads compiled once (``core.compiled_queries``) give what the ORM gives, and the
one ``TableSerializer`` reused for every answer writes the document a fresh one writes
(issue 19, "the move path")."""

import random

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Exists, OuterRef

from core.compiled_queries import CompiledQuery, model_columns
from notices.models import Notification
from tables import selectors
from tables.api.common import TABLE_REPRESENTATION, TableSerializer
from tables.models import Seat, Table
from tables.services import transitions
from tests.support.api import create_table, join, play_one, table

pytestmark = pytest.mark.django_db


def _two_seats(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    return created["id"]


def _seats_by_orm(table_id: int) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=table_id).select_related("table", "user").order_by("index")
    )


def test_the_compiled_read_loads_what_select_related_loads(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    Notification.objects.filter(table_id=table_id).delete()
    Notification.objects.create(recipient=bob, table_id=table_id, kind="talk", key="t1")
    expected = _seats_by_orm(table_id)
    for user, unread in ((alice, False), (bob, True)):
        loaded, seat = selectors.table_for_user(table_id, user, unread=_unread)
        seats = list(loaded.seat_set.all())
        for field in Seat._meta.concrete_fields:
            assert [getattr(s, field.attname) for s in seats] == [
                getattr(s, field.attname) for s in expected
            ], field.name
        for field in Table._meta.concrete_fields:
            assert getattr(loaded, field.attname) == getattr(expected[0].table, field.attname)
        assert [s.user.username for s in seats] == [s.user.username for s in expected]
        assert seat.user_id == user.pk
        assert loaded.unread_notices is unread
        assert isinstance(loaded.state, dict)  # the JSON column is parsed, as the ORM does


def _unread(user_id):
    rows = Notification.objects.filter(recipient=user_id, table_id=OuterRef("table_id"))
    return Exists(rows.filter(read_at__isnull=True))


def test_a_missing_table_is_not_found(alice):
    with pytest.raises(Exception) as raised:
        selectors.table_for_user(2_000_000_000, alice)
    assert getattr(raised.value, "code", None) == "not_found"


def test_the_lock_and_the_movers_read_are_current(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    Table.objects.filter(pk=table_id).update(version=41)
    locked = transitions.lock_for_move(table_id, alice)
    assert locked.table.version == 41
    assert locked.table.current_hand_id is not None
    assert [seat.index for seat in locked.seats] == [0, 1]
    assert transitions.lock(2_000_000_000, skip_locked=True) is None


def test_a_stand_in_missing_from_the_sql_is_refused():
    query = CompiledQuery(lambda table_id: Table.objects.values_list("id"))
    with pytest.raises(ImproperlyConfigured):
        query.rows(1)


def test_the_compiled_rows_are_the_orms_rows(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    columns = model_columns(Table)
    query = CompiledQuery(lambda pk: Table.objects.filter(pk=pk).values_list(*columns))
    assert query.rows(table_id) == list(Table.objects.filter(pk=table_id).values_list(*columns))
    assert query.rows(table_id + 1000) == []


def test_the_reused_serializer_writes_a_fresh_ones_document(api_client_for, alice, bob):
    table_id = _two_seats(api_client_for, alice, bob)
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    users = {0: alice, 1: bob}
    rng = random.Random(19)
    for _ in range(12):
        state = table(clients[0], table_id)
        if state["status"] != "playing":
            break
        for user in users.values():
            loaded, seat = selectors.table_for_user(table_id, user)
            data = selectors.table_view_for_user(loaded, seat, user)
            assert TABLE_REPRESENTATION.to_representation(data) == TableSerializer(data).data
        mover = state["turn_seat"]
        assert play_one(clients[mover], table(clients[mover], table_id), rng).status_code == 200
