"""Locking a table for a write and reading it with its seats: the table row ``FOR UPDATE``
and its seats read after the lock, in queries compiled to SQL once
(``core.compiled_queries``). ``tables.services.transitions`` hands
these out to every verb."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import OuterRef, Subquery
from django.db.transaction import TransactionManagementError

from core.compiled_queries import CompiledQuery, from_row, model_columns, rows_together
from tables import selectors, unread
from tables.errors import not_found
from tables.models import Hand, Seat, Table

_TABLE_COLUMNS = model_columns(Table)


def _lock_read(skip_locked: bool) -> CompiledQuery:
    def build(table_id: int):
        rows = Table.objects.select_for_update(skip_locked=skip_locked).filter(pk=table_id)
        return rows.values_list(*_TABLE_COLUMNS)

    return CompiledQuery(build)


#: The lock's query, compiled once (``core.compiled_queries``): waiting, and skipping.
_LOCKS = {False: _lock_read(False), True: _lock_read(True)}


def lock(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """Lock the table row for this transaction and read it, in one query (compiled once).
    Raises ``not_found`` for a missing table; with ``skip_locked`` returns ``None``
    instead of waiting when another holds the lock. Raises ``TransactionManagementError``
    outside a transaction, as ``select_for_update`` does (the compiled query no longer
    passes Django's check after its first run)."""
    _in_a_transaction()
    return _locked_table(_LOCKS[skip_locked].rows(table_id), skip_locked=skip_locked)


def _in_a_transaction() -> None:
    """Raise ``TransactionManagementError`` outside a transaction, as Django's own check of
    ``select_for_update`` does (a compiled query no longer passes it)."""
    if connection.get_autocommit():
        raise TransactionManagementError("select_for_update is for a transaction only.")


def _locked_table(rows: list[tuple], *, skip_locked: bool) -> Table | None:
    """The table of the lock's ``rows``; with none, ``None`` when the lock was skipped,
    else ``not_found``."""
    if not rows:
        if skip_locked:
            return None
        raise not_found()
    return from_row(Table, rows[0], 0)[0]


@dataclass(frozen=True, slots=True)
class Locked:
    """A table row locked by the running transaction (``lock``) and its seats, by index,
    read after the lock (so they are current). ``table`` carries what the mover's read
    brought (``lock_for_move``): ``current_hand_id`` and ``unread_notices``."""

    table: Table
    seats: list[Seat]


_USER = Seat._meta.get_field("user").related_model
_SEAT_COLUMNS = model_columns(Seat)
_USER_COLUMNS = model_columns(_USER, "user__")
#: What the mover's read adds to the seats' columns, in its columns' order.
_MOVER_FACTS = ("current_hand_id", "unread_notices")


def _mover_read() -> CompiledQuery:
    """The seats (by index) and their users, the current hand's id and whether the mover
    has unread notices at the table, compiled once."""

    def build(table_id: int, user_id: int):
        current_hand = Hand.objects.filter(table=OuterRef("table_id")).order_by("-number")
        facts = {
            "current_hand_id": Subquery(current_hand.values("pk")[:1]),
            "unread_notices": unread.unread_at_table(user_id, OuterRef("table_id")),
        }
        rows = Seat.objects.filter(table_id=table_id).annotate(**facts).order_by("index")
        return rows.values_list(*_SEAT_COLUMNS, *_USER_COLUMNS, *facts)

    return CompiledQuery(build, kinds=(int, int))


_MOVER_READ = _mover_read()


def lock_for_move(table_id: int, user) -> Locked:
    """``lock`` the table, then read its seats for ``user``'s move: two queries, each
    compiled once, sent in one round trip (``core.compiled_queries.rows_together``). On
    the table: ``current_hand_id`` (``save_transition`` then needs no query for it) and
    ``unread_notices`` (the answer marks them read, ``services.table_read_after_write``).

    These ride on the seats' query, after the lock's: PostgreSQL runs it once the lock
    is held, with a snapshot of its own, so it sees every write committed before (the
    lock's own query may not: PostgreSQL evaluates its subqueries in the snapshot taken
    before it waited). Raises
    ``not_found`` for a missing table, ``TransactionManagementError`` outside a
    transaction."""
    _in_a_transaction()
    seats_read = (_MOVER_READ, (table_id, user.pk))
    locked, rows = rows_together((_LOCKS[False], (table_id,)), seats_read)
    table = _locked_table(locked, skip_locked=False)
    names = _MOVER_FACTS
    users_at = len(_SEAT_COLUMNS)
    facts_at = users_at + len(_USER_COLUMNS)
    seats = []
    for row in rows:
        seat = from_row(Seat, row, 0)[0]
        seat.user = from_row(_USER, row, users_at)[0] if seat.user_id is not None else None
        seats.append(seat)
    for offset, name in enumerate(names):
        setattr(table, name, rows[0][facts_at + offset] if rows else None)
    selectors.attach_seats(table, seats)
    return Locked(table=table, seats=seats)


def table_seats(table: Table, **annotations) -> list[Seat]:
    """The table's seats (with their users), by index, attached to ``table`` so that
    the answer built from it reads them no more (``selectors.attach_seats``).

    In the same query, left on ``table`` as attributes: ``current_hand_id`` (the last
    Hand row's id: ``save_transition`` then needs no query for it) and ``annotations``
    (subqueries over the seat row's ``table_id``). Called after ``lock``, this query's
    snapshot is taken once the lock is held, so it sees every write committed before.
    """
    current_hand = Hand.objects.filter(table=OuterRef("table_id")).order_by("-number")
    rows = (
        Seat.objects.filter(table=table)
        .select_related("user")
        .annotate(current_hand_id=Subquery(current_hand.values("pk")[:1]), **annotations)
        .order_by("index")
    )
    seats = list(rows)
    for name in ("current_hand_id", *annotations):
        setattr(table, name, getattr(seats[0], name) if seats else None)
    selectors.attach_seats(table, seats)
    return seats
