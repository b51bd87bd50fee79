"""A read of a table writes nothing: an overdue turn (R27) reads as ``overdue`` until the
absence sweep forfeits it, a lost bot turn waits for the stuck-bot sweep, and what the
reader saw (presence, the seen version, notices read) is recorded once the answer has
gone, outside the read (``core.table_reads``).

The clock is frozen at T0 and moved by hand (``clock``), as in test_absence."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from notices import presence
from tables import tasks
from tables.models import Seat, Table, TableEvent
from tests.support.api import create_table, play_one, seated_clients, table
from tests.support.clock import T0
from tests.support.database import fresh, human_moves_until_bot_turn

pytestmark = pytest.mark.django_db

H48 = timedelta(hours=48)
MINUTE = timedelta(minutes=1)
WRITES = ("INSERT", "UPDATE", "DELETE")


def _writes(request) -> tuple[list[str], object]:
    """The statements of ``request()`` (its answer included: the test client closes it,
    so what follows the answer runs inside) that write, and its response."""
    with CaptureQueriesContext(connection) as queries:
        response = request()
    sqls = [query["sql"] for query in queries]
    return [sql[:120] for sql in sqls if sql.lstrip().upper().startswith(WRITES)], response


def _row(table_id: int) -> tuple:
    row = fresh(table_id)
    return row.status, row.version, row.deadline, row.outcome, row.bot_requeued_at


def test_a_read_of_an_overdue_table_writes_nothing_and_the_sweep_forfeits_it(
    clock, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    absent = fresh(table_id).turn_seat
    other = 1 - absent
    url = f"/api/v1/tables/{table_id}/"
    page = Client()
    page.force_login((alice, bob)[other])
    clock.move_to(T0 + H48 - MINUTE)
    before = clients[other].get(url)  # seen at this version: nothing left to record
    clients[absent].get(url)
    assert before.json()["overdue"] is False
    assert page.get(f"/mesas/{table_id}/").status_code == 200

    clock.move_to(T0 + H48 + MINUTE)
    stored, events = _row(table_id), TableEvent.objects.count()
    for request in (
        lambda: clients[other].get(url),
        lambda: clients[other].get(url, HTTP_IF_NONE_MATCH=before.headers["ETag"]),
        lambda: clients[absent].get(url),
        lambda: clients[other].get("/api/v1/tables/"),
        lambda: page.get(f"/mesas/{table_id}/"),
    ):
        writes, response = _writes(request)
        assert response.status_code in (200, 304)
        assert writes == []
    assert _row(table_id) == stored and TableEvent.objects.count() == events

    view = clients[other].get(url).json()
    assert (view["status"], view["overdue"], view["outcome"]) == ("playing", True, None)
    assert view["deadline"] is not None
    (row,) = clients[other].get("/api/v1/tables/").json()["results"]
    assert (row["status"], row["overdue"]) == ("playing", True)
    assert page.get(f"/mesas/{table_id}/").context["table"]["overdue"] is True

    assert tasks.sweep_absences() == 1
    view = clients[other].get(url).json()
    assert (view["status"], view["outcome"], view["winners"]) == ("finished", "absent", [other])
    assert view["overdue"] is False
    assert fresh(table_id).finished_at == T0 + H48 + MINUTE


def test_a_read_never_sends_a_lost_bot_turn_again_the_sweep_does(
    clock, api_client_for, alice, run_tasks
):
    created = create_table(api_client_for(alice), 2, ["garabato"])
    row = human_moves_until_bot_turn(created["id"], alice, random.Random(4))
    client = api_client_for(alice)
    url = f"/api/v1/tables/{created['id']}/"
    client.get(url)
    clock.move_to(T0 + timedelta(minutes=10))  # past BOT_STUCK_SECONDS: the task was lost
    stored = _row(created["id"])
    writes, response = _writes(lambda: client.get(url))
    assert response.status_code == 200 and writes == []
    assert _row(created["id"]) == stored

    with run_tasks():  # the sweep's BotTurnLost event commits; its subscriber queues the bot
        assert tasks.sweep_stuck_bots() == 1  # the bot plays (inline: no broker here)
    assert fresh(created["id"]).version > row.version


def test_what_a_read_saw_is_recorded_once_its_answer_has_gone(clock, api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    mover = fresh(table_id).turn_seat
    reader = (alice, bob)[1 - mover]
    moved = play_one(clients[mover], table(clients[mover], table_id), random.Random(1))
    assert moved.status_code == 200
    version = fresh(table_id).version
    assert Seat.objects.get(table_id=table_id, user=reader).seen_version < version
    clock.move_to(T0 + MINUTE)

    writes, response = _writes(lambda: clients[1 - mover].get(f"/api/v1/tables/{table_id}/"))
    assert response.json()["since_your_last_visit"]["moves"]  # built before it was saved
    assert len(writes) == 1 and 'UPDATE "tables_seat"' in writes[0]
    assert Seat.objects.get(table_id=table_id, user=reader).seen_version == version
    assert presence.last_seen(reader.pk, table_id) == (T0 + MINUTE).timestamp()
    assert fresh(table_id).status == Table.Status.PLAYING
