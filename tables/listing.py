"""The "my tables" list in pages (the API's ``GET tables/`` and the "Mis mesas" page):
a keyset cursor over each player's own seat rows, in the order the partial index
``seat_my_tables`` keeps them (``Seat.list_group``, then ``list_moved_at``, the last
move or, once over, the end, and the table id, newest first), so a page is a range of
that index and costs the same whatever the number of tables behind it
(docs/scaling.md)."""

from __future__ import annotations

import json
from base64 import urlsafe_b64decode, urlsafe_b64encode
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.db.models import (
    BooleanField,
    ExpressionWrapper,
    Prefetch,
    Q,
    QuerySet,
    prefetch_related_objects,
)

from tables.errors import bad_cursor
from tables.models import Seat, Table

#: "My tables" come in pages of this many rows (``?page_size=`` up to ``MAX_PAGE_SIZE``).
PAGE_SIZE = 50
MAX_PAGE_SIZE = 100

#: A seat row's table has begun its match: it is being played or is over, or it was
#: closed with a match (a table closed while waiting, "cancelled", has no snapshot).
STARTED = Q(table__status__in=["playing", "finished"]) | Q(table__state__isnull=False)

#: The list's order: the index ``seat_my_tables`` after its ``user`` column.
ORDER = ("list_group", "-list_moved_at", "-table_id")
#: The same index read backwards: the rows before a cursor, nearest first.
BACKWARDS = ("-list_group", "list_moved_at", "table_id")


def tables_page_for_user(
    user, cursor: str = "", size: int = PAGE_SIZE
) -> tuple[list[Table], str | None]:
    """One page of ``user``'s tables, each once (their first seat's row: a
    ``seven_plus_seven`` player holds two seats): their turn first, then other playing
    tables, then those waiting for players, then finished ones (``seating.list_group``),
    each group by latest move (the finished ones by when they ended), newest first. The
    rows after ``cursor`` (``""``: from the top), at most ``size``, and the cursor of the
    next page (``None`` on the last).

    Each table comes with its seats (and their users) and, from the player's own seat,
    ``my_seat`` (its index), ``my_seen_version``, ``priority`` (the group) and
    ``started`` (``STARTED``); the snapshot is not loaded. Two queries (the page, its
    seats), whatever the number of tables: the page is one range of the index
    ``seat_my_tables`` read up to its LIMIT (two ranges, unioned, after a cursor: the
    rest of the cursor's group, the groups after it), with no sort of the player's other
    rows (tests/tables/test_list_plan.py).

    A cursor is opaque to clients (base64 of the last row's group, ``list_moved_at`` and
    table id). A row that changes group between two pages (your turn came) may be seen
    twice or not at all until the next first page. Raises ``TableError`` ``invalid``
    (400) for a cursor this function did not make."""
    seats = list(page_query(user, cursor, size, annotate={"started": started()}))
    tables = tables_of(seats[:size])
    if len(seats) <= size:
        return tables, None
    return tables, cursor_of(seats[size - 1])


def started() -> ExpressionWrapper:
    """``STARTED`` as a value read with each seat row (``page_query``'s ``annotate``)."""
    return ExpressionWrapper(STARTED, output_field=BooleanField())


def tables_of(seats: list[Seat]) -> list[Table]:
    """The tables of the player's seat rows ``seats``, in their order, with ``my_seat``,
    ``my_seen_version``, ``priority`` and, when the rows were read with it, ``started``
    from the row and every seat (with its user) prefetched: one query."""
    tables = []
    for seat in seats:
        table = seat.table
        table.my_seat, table.my_seen_version = seat.index, seat.seen_version
        table.priority = seat.list_group
        if hasattr(seat, "started"):
            table.started = seat.started
        tables.append(table)
    prefetch_related_objects(
        tables,
        Prefetch("seat_set", queryset=Seat.objects.select_related("user").order_by("index")),
    )
    return tables


def cursor_of(seat: Seat) -> str:
    """The cursor of the page that starts after (or, read towards newer rows, before) the
    player's seat row ``seat``: base64 of its group, ``list_moved_at`` and table id."""
    position = [seat.list_group, seat.list_moved_at.isoformat(), seat.table_id]
    return urlsafe_b64encode(json.dumps(position).encode()).decode()


def page_query(
    user,
    cursor: str = "",
    size: int = PAGE_SIZE,
    *,
    group: int | None = None,
    where: Q | None = None,
    annotate: dict[str, Any] | None = None,
    newer: bool = False,
) -> QuerySet[Seat]:
    """The page's query: ``user``'s own seat rows (with their tables, no snapshot) after
    ``cursor``, in list order, at most ``size + 1`` (the one more says a next page
    exists). Raises ``TableError`` ``invalid`` (400) for a bad cursor.

    ``group``: only the rows of that group (``seating.list_group``; a cursor of another
    group is a bad one), one range of the index. ``where``: more conditions on the seat
    row and its table (``tables.history``'s filters): the range is then read further,
    up to the rows that match, still with no sort. ``annotate``: more values read with
    each row, in the same query. ``newer`` (with ``group`` and a
    cursor): the rows *before* the cursor instead, the nearest first (the index read
    backwards): the page before, which the caller puts back in list order."""
    rows = (
        Seat.objects.filter(user=user, second_hand=False)
        .select_related("table")
        .defer("table__state")
    )
    if annotate:
        rows = rows.annotate(**annotate)
    if where is not None:
        rows = rows.filter(where)
    if group is not None:
        rows = rows.filter(list_group=group)
    if not cursor:
        return rows.order_by(*ORDER)[: size + 1]
    at, moved, last_id = _cursor_position(cursor)
    if group is not None and at != group:
        raise bad_cursor()
    if newer:
        if group is None:
            raise ValueError("newer pages are read within one group")
        before = rows.filter(list_group=at, list_moved_at__gte=moved).exclude(
            list_moved_at=moved, table_id__lte=last_id
        )
        return before.order_by(*BACKWARDS)[: size + 1]
    # Each part is one range of the index (the bound on ``list_moved_at`` starts the
    # first at the cursor; the exclusion drops only the rows moved at that instant).
    in_the_group = Q(list_group=at, list_moved_at__lte=moved) & ~Q(
        list_moved_at=moved, table_id__gte=last_id
    )
    if group is not None:
        return rows.filter(in_the_group).order_by(*ORDER)[: size + 1]
    if connection.features.supports_slicing_ordering_in_compound:
        rest = rows.filter(in_the_group).order_by(*ORDER)[: size + 1]
        later = rows.filter(list_group__gt=at).order_by(*ORDER)[: size + 1]
        rows = rest.union(later, all=True)
    else:  # SQLite (``make run``): the same rows in one filter, no index plan kept
        rows = rows.filter(in_the_group | Q(list_group__gt=at))
    return rows.order_by(*ORDER)[: size + 1]


def _cursor_position(cursor: str) -> tuple[int, datetime, int]:
    """The ``(group, list time, table id)`` a cursor holds. Raises ``bad_cursor`` for
    anything ``cursor_of`` could not have written: not base64 of a JSON triple, a time
    without its zone or out of the database's range once in UTC, a group or an id that
    is not a small non-negative integer (``Infinity``, or over 64 bits)."""
    try:
        group, moved, last_id = json.loads(urlsafe_b64decode(cursor.encode()))
        position = int(group), datetime.fromisoformat(moved), int(last_id)
        if position[1].tzinfo is None:
            raise ValueError("a list time has its zone")
        position[1].astimezone(UTC)  # 9999-12-31 at -23:59 is past year 9999
    except (ValueError, TypeError, UnicodeError, OverflowError):
        raise bad_cursor() from None
    if not (0 <= position[0] < 2**15 and 0 <= position[2] < 2**63):
        raise bad_cursor()
    return position
