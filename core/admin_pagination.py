"""Admin changelists that open in the same time at 100 rows as at ten million.

Django's changelist counts its rows twice: the filtered queryset (for the pages) and,
unless ``show_full_result_count = False``, the whole table ("N of M"). On PostgreSQL a
``count(*)`` reads every row: at millions of moves that is seconds. ``LargeTableAdmin``
turns the full count off and pages with ``BoundedCountPaginator``: an unfiltered list
shows PostgreSQL's own estimate of the table's rows (``pg_class.reltuples``, kept by
autovacuum and ``ANALYZE``), and a filtered or searched one counts at most
``COUNT_LIMIT`` rows (then shows that many pages; narrow the filter to see the rest).
docs/scaling.md has the times measured.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db import connections
from django.utils.functional import cached_property

#: A filtered changelist counts at most this many rows (100 pages of 100).
COUNT_LIMIT = 10_000


class BoundedCountPaginator(Paginator):
    """A ``Paginator`` over a queryset whose ``count`` never reads more than
    ``COUNT_LIMIT`` rows: the planner's estimate of the whole table when the queryset has
    no filter (PostgreSQL; elsewhere, and when the table was never analysed, a real
    count), else ``min(rows, COUNT_LIMIT)``."""

    @cached_property
    def count(self) -> int:
        queryset = self.object_list
        if not queryset.query.where:
            estimate = _estimated_rows(queryset)
            if estimate is not None:
                return estimate
        return queryset.order_by()[:COUNT_LIMIT].count()


def _estimated_rows(queryset) -> int | None:
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
            [queryset.model._meta.db_table],
        )
        row = cursor.fetchone()
    if row is None or row[0] < COUNT_LIMIT:  # never analysed (-1), or small: count it
        return None
    return row[0]


class LargeTableAdmin:
    """ModelAdmin mixin for a table that grows with play (tables, hands, moves, users): no
    full count, bounded page counts."""

    show_full_result_count = False
    paginator = BoundedCountPaginator
