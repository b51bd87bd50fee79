"""The move path's writes as SQL statements, sent several in one round trip (``send``).

Each builder returns ``(sql, params)`` with ``%s`` placeholders: the SQL an ORM call would
send for the same write, without reading anything back (no ``RETURNING``), since the rows
in memory already hold every value the answer needs. A move sends the table's UPDATE, the
Move rows' INSERT, the seats' UPDATE and the mover's seen version together
(``transitions.save_transition``); ``tests/tables/test_move_statements.py`` compares each
statement's effect with the ORM's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import connection
from django.db.models import Model

from core.compiled_queries import execute_together
from tables.models import Move, Seat

Statement = tuple[str, list]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _written_fields(model: type[Model]) -> tuple:
    """Every concrete field of ``model`` but its primary key: what a row's write sends."""
    return tuple(field for field in model._meta.concrete_fields if not field.primary_key)


@cache
def _insert_parts(model: type[Model], vendor: str) -> tuple[tuple, str, str]:
    """``insert``'s fields, its SQL up to ``VALUES`` and one row's placeholders, built once
    per model and database kind."""
    fields = _written_fields(model)
    columns = ", ".join(_quote(field.column) for field in fields)
    head = f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES "
    return fields, head, "(" + ", ".join(["%s"] * len(fields)) + ")"


def insert(model: type[Model], rows: Sequence[Model]) -> Statement:
    """One INSERT of ``rows`` (instances of ``model``, not saved) with every concrete
    field but the primary key, as ``bulk_create`` sends it but without ``RETURNING``: the
    instances keep ``pk`` ``None``. ``rows`` must not be empty."""
    fields, head, row = _insert_parts(model, connection.vendor)
    params = [_value(field, instance, add=True) for instance in rows for field in fields]
    return head + ", ".join([row] * len(rows)), params


@cache
def _update_parts(model: type[Model], vendor: str) -> tuple[tuple, str]:
    """``update``'s fields and SQL, built once per model and database kind."""
    fields = _written_fields(model)
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in fields)
    primary_key = _quote(model._meta.pk.column)
    table = _quote(model._meta.db_table)
    return fields, f"UPDATE {table} SET {assignments} WHERE {primary_key} = %s"


def update(instance: Model) -> Statement:
    """The UPDATE of every concrete field of ``instance`` (a saved row) by its primary
    key, as ``instance.save()`` sends it for a row that exists."""
    fields, sql = _update_parts(type(instance), connection.vendor)
    return sql, [*(_value(field, instance, add=False) for field in fields), instance.pk]


def _value(field, instance: Model, *, add: bool):
    """``field``'s value of ``instance`` as the database takes it, after the field's own
    ``pre_save`` (an ``auto_now_add`` column is dated, as by the ORM)."""
    return field.get_db_prep_save(field.pre_save(instance, add), connection)


def moves_insert(moves: Sequence[Move]) -> Statement:
    """The INSERT of the Move rows ``moves`` (their ``hand`` saved already)."""
    return insert(Move, moves)


def seats_update(seats: Sequence[Seat], names: Sequence[str]) -> Statement:
    """One UPDATE setting the fields ``names`` (attribute names of ``Seat``) of every one
    of ``seats`` (saved rows) to their values in memory, as ``bulk_update`` would, but
    joined on the id with a list of the values (``SELECT ... UNION ALL SELECT ...``,
    which SQLite takes too) instead of a ``CASE`` per field: cheaper to build, no
    expressions resolved. Each value is cast to its column's type. ``seats`` and
    ``names`` must not be empty."""
    fields, first, others, tail = _seats_parts(tuple(names), connection.vendor)
    sql = f"{first}{others * (len(seats) - 1)}{tail}"
    params = []
    for seat in seats:
        params.append(seat.pk)
        params.extend(_value(field, seat, add=False) for field in fields)
    return sql, params


@cache
def _seats_parts(names: tuple[str, ...], vendor: str) -> tuple[tuple, str, str, str]:
    """``seats_update``'s fields and SQL: up to its first row of values, each further
    row, and what follows the rows; built once per list of fields and database kind."""
    fields = tuple(Seat._meta.get_field(name) for name in names)
    casts = [f"CAST(%s AS {field.cast_db_type(connection)})" for field in fields]
    assignments = ", ".join(
        f"{_quote(field.column)} = given.value_{place}" for place, field in enumerate(fields)
    )
    table = _quote(Seat._meta.db_table)
    first = f"UPDATE {table} SET {assignments} FROM (SELECT %s AS seat_id, " + ", ".join(
        f"{cast} AS value_{place}" for place, cast in enumerate(casts)
    )
    others = " UNION ALL SELECT %s, " + ", ".join(casts)
    tail = f") AS given WHERE {table}.{_quote('id')} = given.seat_id"
    return fields, first, others, tail


def _seen_sql() -> str:
    seen = _quote(Seat._meta.get_field("seen_version").column)
    table = _quote(Seat._meta.get_field("table").column)
    user = _quote(Seat._meta.get_field("user").column)
    return (
        f"UPDATE {_quote(Seat._meta.db_table)} SET {seen} = %s"
        f" WHERE {table} = %s AND {user} = %s AND {seen} < %s"
    )


_SEEN_SQL = _seen_sql()


def send(*written: Statement) -> None:
    """Send the statements ``written`` in their order, in one round trip on PostgreSQL
    (``core.compiled_queries.execute_together``)."""
    execute_together(written)


def seen_update(table_id: int, user_id: int, version: int) -> Statement:
    """The seen version's UPDATE of one person's seats at a table (``table_seen``'s, as
    SQL): every seat of ``user_id`` at ``table_id`` that had seen less than ``version``
    has seen ``version`` now."""
    return _SEEN_SQL, [version, table_id, user_id, version]
