"""A queryset compiled to SQL once and run many times with other values.

Django compiles a queryset to SQL on every evaluation: for the one query of a hot read
(three tables joined, a subquery) the compilation took longer than PostgreSQL took to
answer it. ``CompiledQuery`` builds the queryset once with
stand-in values, keeps its SQL, its parameters and the fields' converters, and each run
puts the real values in the stand-ins' places, runs the SQL on the database's cursor (so
Django still counts and logs it) and applies the same converters Django would (a JSON
column parsed, a datetime made aware): the rows are the ones ``values_list`` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models import Model, QuerySet

#: Stand-in values: ints inside PostgreSQL's ``integer`` range (Django refuses to compile
#: an exact lookup with a value out of its field's range), never a real id.
STAND_INS = (-2_000_000_011, -2_000_000_017, -2_000_000_027, -2_000_000_033)


class CompiledQuery:
    """``build(*stand_ins)`` returns a ``values_list`` queryset (flat columns, in a known
    order) whose varying values are its arguments, given to lookups as they are (an
    exact match, not transformed): ids (``kinds`` ``int``) or strings (``str``: stood in
    for by a text no request sends). ``rows(*values)`` runs it with ``values`` in every
    place of their stand-ins: a list of tuples, as ``list(queryset)`` gives.

    Raises ``ImproperlyConfigured`` (at the first run) when a stand-in is not found among
    the compiled parameters, so the SQL could not be reused with other values.
    """

    def __init__(self, build: Callable[..., QuerySet], kinds: Sequence[type] = (int,)) -> None:
        self._build = build
        self._kinds = tuple(kinds)
        self._compiled: dict[str, tuple] = {}

    def _stand_ins(self) -> list[Any]:
        return [
            STAND_INS[place] if kind is int else f"\x00stand-in-{place}"
            for place, kind in enumerate(self._kinds)
        ]

    def _compile(self, using: str) -> tuple:
        stand_ins = self._stand_ins()
        queryset = self._build(*stand_ins)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        places = []
        for stand_in in stand_ins:
            found = [place for place, param in enumerate(params) if param == stand_in]
            if not found:
                raise ImproperlyConfigured(f"stand-in {stand_in!r} not in the query: {sql}")
            places.append(found)
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        converters = compiler.get_converters(columns)
        return sql, tuple(params), places, compiler, converters

    def rows(self, *values: Any, using: str = "default") -> list[tuple]:
        """The rows of the query with ``values`` (in ``build``'s order) in the stand-ins'
        places, on database ``using``."""
        return rows_together((self, values), using=using)[0]

    def _bound(self, values: Sequence[Any], using: str) -> tuple[str, list, tuple]:
        """The SQL, its parameters with ``values`` in place, and what converts its rows."""
        compiled = self._compiled.get(using)
        if compiled is None:
            compiled = self._compiled[using] = self._compile(using)
        sql, params, places, compiler, converters = compiled
        bound = list(params)
        for found, value in zip(places, values, strict=True):
            for place in found:
                bound[place] = value
        return sql, bound, (compiler, converters)

    @staticmethod
    def _converted(rows: list, conversion: tuple) -> list[tuple]:
        compiler, converters = conversion
        if converters:
            return [tuple(row) for row in compiler.apply_converters(rows, converters)]
        return rows


def rows_together(
    *queries: tuple[CompiledQuery, Sequence[Any]], using: str = "default"
) -> list[list[tuple]]:
    """The rows of each ``(query, values)`` of ``queries``, sent in one round trip (one
    simple-protocol message: psycopg's client-side cursor, Django's default, sends the
    statements together and reads their results in turn with ``nextset``). PostgreSQL
    runs them one after the other, each with its own snapshot under READ COMMITTED, so
    a query after a ``FOR UPDATE`` sees every write committed before the lock was
    granted, as if it had been sent after it. Counted by Django as one query. On another
    database (SQLite, which takes one statement a call) they are sent one after the
    other."""
    bound = [query._bound(values, using) for query, values in queries]
    results = execute_together(
        [(statement, params) for statement, params, _conversion in bound], using=using, fetch=True
    )
    return [
        CompiledQuery._converted(rows, conversion)
        for rows, (_statement, _params, conversion) in zip(results, bound, strict=True)
    ]


def execute_together(
    statements: Sequence[tuple[str, Sequence[Any]]], *, using: str = "default", fetch: bool = False
) -> list[list]:
    """Run ``statements`` (``(sql, params)`` pairs, ``%s`` placeholders) in their order,
    in one round trip on PostgreSQL (one simple-protocol message: psycopg's client-side
    cursor, Django's default; counted by Django as one query), one after the other on
    another database (SQLite takes one statement a call). With ``fetch``, the rows of
    each statement, in order (read in turn with ``nextset``); else ``[]``."""
    connection = connections[using]
    results = []
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":  # SQLite (``make run``): one at a time
            for statement, params in statements:
                cursor.execute(statement, params)
                if fetch:
                    results.append(cursor.fetchall())
            return results
        sql = STATEMENT_SEPARATOR.join(statement for statement, _params in statements)
        cursor.execute(sql, [param for _statement, params in statements for param in params])
        for place in range(len(statements) if fetch else 0):
            if place:
                cursor.nextset()
            results.append(cursor.fetchall())
    return results


def model_columns(model: type[Model], prefix: str = "") -> list[str]:
    """The ``values_list`` names of ``model``'s concrete fields, in ``Model.from_db``'s
    order (``prefix`` ``"table__"`` for a related model's)."""
    return [prefix + field.attname for field in model._meta.concrete_fields]


def from_row(model: type[Model], row: Sequence[Any], start: int, using: str = "default"):
    """The ``model`` instance whose concrete fields are ``row[start:]``'s first columns
    (``model_columns``' order), as Django loads it (``Model.from_db``), and the index of
    the next column."""
    names = _NAMES.get(model)
    if names is None:
        names = _NAMES[model] = [field.attname for field in model._meta.concrete_fields]
    end = start + len(names)
    return model.from_db(using, names, row[start:end]), end


_NAMES: dict[type[Model], list[str]] = {}


#: What separates the statements sent in one round trip (``rows_together``,
#: ``tables.services.statements.send``), in the SQL sent and logged: the statements'
#: separator and a comment that names it (a tool that reads the logged SQL a statement at
#: a time, as ``EXPLAIN`` does, splits them there).
STATEMENT_SEPARATOR = ";\n/* same round trip */ "
