"""``GET table`` and ``POST move`` cost a small, constant number of SQL queries, whatever
the length of the move log: the snapshot is read, never the log replayed (DESIGN.md),
the table is locked and read in one query, and a move's answer is built from what the
write left in memory (issue 19, "the move path")."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Hand, Move, Table
from tests.support.api import create_table, join, play_one, table

# The counts are round trips to PostgreSQL, which takes several statements in one message
# (SQLite takes one a call: the same writes are more queries there).
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

#: Every count includes the token's lookup (DRF's TokenAuthentication), as the floor
#: (``GET /api/v1/me/``) pays it.
#: Before issue 19 (479fb61, this module run there) they were 4, 6, 11 and 14, the
#: moves with one and two savepoints more; at 8cb30bb 2, 4, 6 and 7; at 865be29 2, 4, 5, 6.
#: A poll that finds nothing new: the token, then the table with its seats, in one query;
#: once the answer has gone (``core.table_reads``, outside the read), whether the reader
#: has unread notices there to mark read. The read itself writes nothing; before reads
#: stopped writing the unread check was part of the table's query (2 in all).
QUERIES_304 = 3
#: The same, then the moves since the reader's last read; after the answer the seen
#: version's UPDATE and the unread check (4 before, the UPDATE inside the read).
QUERIES_GET_CHANGED = 5
#: The token; the table locked and read, then its seats (with the current hand's id and
#: whether the mover has unread notices there), two statements in one round trip
#: (``core.compiled_queries.rows_together``); the table's UPDATE, which carries in its
#: round trip the Move rows' INSERT, the seats' UPDATE (scores, their places in the
#: players' "my tables" lists) and the mover's seen version
#: (``tables.services.statements``); the INSERT of its event's outbox row (the next
#: turn's ``TurnStarted``: ``tables.services.outbox.record``), so that it commits with the
#: move (the same count as when the row named the notice's or the bot's task). They were
#: 5 at 865be29 (the lock and the seats' read, the seats' UPDATE: a query each), 6 at
#: 8cb30bb, 3 before the outbox's rows.
QUERIES_MOVE = 4
#: The same, and the API layer's own two (``tables.api.idempotency``): the remembered
#: answer's SELECT once the table is locked, its INSERT after the move (4 at 5675bda, when
#: the service read it with the seats and sent its INSERT with the move's writes).
QUERIES_MOVE_WITH_KEY = QUERIES_MOVE + 2


def _count(request) -> tuple[int, object, str]:
    """The queries of ``request()`` and its response. Savepoints are left out of the
    count: the test runs in a transaction, so the write's own transaction is a savepoint
    here and BEGIN/COMMIT (not counted by Django) in production; at most one is allowed.
    """
    with CaptureQueriesContext(connection) as queries:
        response = request()
    sqls = [query["sql"] for query in queries]
    savepoints = [sql for sql in sqls if sql.startswith("SAVEPOINT")]
    assert len(savepoints) <= 1, sqls
    counted = [sql for sql in sqls if "SAVEPOINT" not in sql]
    return len(counted), response, "\n".join(sql[:90] for sql in counted)


def _four_seats(api_client_for, alice, bob, carol, dave):
    created = create_table(api_client_for(alice), 4, ["friend"] * 3)
    clients = {0: api_client_for(alice)}
    for seat, user in zip((1, 2, 3), (bob, carol, dave), strict=True):
        clients[seat] = api_client_for(user)
        join(clients[seat], created["invites"][seat - 1]["token"])
    return created["id"], clients


def _measure(clients, table_id, rng, key: str = ""):
    """Queries of the next mover's GET table (a move was made since their last read), of
    a 304 poll, and of one POST move (a play that does not end the hand), with ``key``
    as its Idempotency-Key when given."""
    mover = clients[Table.objects.get(pk=table_id).turn_seat]  # no read by a player
    url = f"/api/v1/tables/{table_id}/"
    changed = _count(lambda: mover.get(url))
    assert changed[1].status_code == 200
    etag = changed[1].headers["ETag"]
    unchanged = _count(lambda: mover.get(url, HTTP_IF_NONE_MATCH=etag))
    assert unchanged[1].status_code == 304
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    state = changed[1].json()
    move = rng.choice(state["game"]["legal_moves"])
    body = {"tile": move["tile"], "end": move["end"], "version": state["version"]}
    posted = _count(lambda: mover.post(f"{url}moves/", body, format="json", **headers))
    assert posted[1].status_code == 200, posted[1].json()
    return changed, unchanged, posted


def test_a_read_and_a_move_cost_these_queries(api_client_for, alice, bob, carol, dave):
    table_id, clients = _four_seats(api_client_for, alice, bob, carol, dave)
    rng = random.Random(4)
    mover = clients[table(clients[0], table_id)["turn_seat"]]
    assert play_one(mover, table(mover, table_id), rng).status_code == 200
    changed, unchanged, posted = _measure(clients, table_id, rng)
    assert changed[0] == QUERIES_GET_CHANGED, changed[2]
    assert unchanged[0] == QUERIES_304, unchanged[2]
    assert posted[0] == QUERIES_MOVE, posted[2]
    changed, unchanged, posted = _measure(clients, table_id, rng, key="alice-1")
    assert posted[0] == QUERIES_MOVE_WITH_KEY, posted[2]


def test_it_costs_the_same_queries_at_2_and_at_20_moves(api_client_for, alice, bob, carol, dave):
    for attempt in range(20):
        table_id, clients = _four_seats(api_client_for, alice, bob, carol, dave)
        rng = random.Random(attempt)
        # The measured mover must not be the one who moved last: when the other three
        # pass automatically (R16) the turn comes back to them, and they have seen it all.
        last = None
        for _ in range(2):
            last = table(clients[0], table_id)["turn_seat"]
            assert play_one(clients[last], table(clients[last], table_id), rng).status_code == 200
        while Table.objects.get(pk=table_id).turn_seat == last:
            assert play_one(clients[last], table(clients[last], table_id), rng).status_code == 200
        early = _measure(clients, table_id, rng, key=f"early-{attempt}")
        last = None
        while (
            Move.objects.filter(table_id=table_id).count() < 20
            or Table.objects.get(pk=table_id).turn_seat == last
        ):
            if Hand.objects.filter(table_id=table_id).count() > 1:
                break
            last = Table.objects.get(pk=table_id).turn_seat
            play_one(clients[last], table(clients[last], table_id), rng)
        else:
            late = _measure(clients, table_id, rng, key=f"late-{attempt}")
            late_hand = late[2][1].json()["game"]["last_hand"]
            if late_hand is None and early[2][1].json()["game"]["last_hand"] is None:
                assert [part[0] for part in late] == [part[0] for part in early]
                return
    pytest.fail("no 4-seat hand lasted 21 moves in 20 attempts")
