"""A page of "my tables" is a range of the seat index ``seat_my_tables`` read up to its
LIMIT, for a player with 2,000 finished tables as for one with 2: PostgreSQL is asked to
EXPLAIN ANALYZE the page query (``tables.listing.page_query``: the first page and a page
after a cursor) and the test fails unless the player's seats are read by an index scan of
``seat_my_tables`` that stops after the page (at most ``size + 1`` rows per range), the
tables are fetched by primary key, and no node sorts, hashes or scans the player's
other rows.

The data are written in bulk (``tests.support.many_tables``) and ``ANALYZE``d, so the
planner decides on real statistics; the query orders by the index's columns exactly and
filters on its condition, so no other index can serve it without a sort."""

import json

import pytest
from django.db import connection

from tables import history, listing, selectors
from tables.models import Table
from tables.seating import LIST_OVER
from tests.support.many_tables import many_tables

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SIZE = listing.PAGE_SIZE


def _nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from _nodes(child)


def _plan(queryset) -> dict:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
        raw = cursor.fetchone()[0]
    return (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]


def _problems(plan: dict, *, strict: bool = True) -> list[str]:
    """What in ``plan`` reads more than the page: the reasons the test fails. Not
    ``strict`` (a player with a handful of tables), the planner may read the player's
    seats through another index on ``user`` and sort them: they are fewer than a page."""
    bad, seat_scans = [], 0
    for node in _nodes(plan):
        kind, relation = node["Node Type"], node.get("Relation Name")
        rows = node.get("Actual Rows", 0) * node.get("Actual Loops", 1)
        if kind in ("Sort", "Incremental Sort", "Hash", "Materialize") and rows > 2 * (SIZE + 1):
            bad.append(f"{kind} of {rows} rows")
        if relation == "tables_seat":
            seat_scans += 1
            index = node.get("Index Name")
            if "Index" not in kind or "Index Cond" not in node:
                bad.append(f"{kind} on tables_seat ({index})")
            elif strict and (kind != "Index Scan" or index != "seat_my_tables"):
                bad.append(f"{kind} on tables_seat ({index})")
            elif rows > SIZE + 1:
                bad.append(f"seat_my_tables read {rows} rows for a page of {SIZE}")
        if relation == "tables_table" and (
            kind != "Index Scan" or node.get("Index Name") != "tables_table_pkey"
        ):
            bad.append(f"{kind} on tables_table ({node.get('Index Name')})")
    if not seat_scans:
        bad.append("no scan of tables_seat")
    return bad


def test_a_page_is_an_index_range_for_few_and_for_many_tables(alice, bob, carol):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: EXPLAIN (ANALYZE, FORMAT JSON)")
    many_tables(alice, bob, 2)
    many_tables(carol, bob, 2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tables_seat")
        cursor.execute("ANALYZE tables_table")
    _page, following = listing.tables_page_for_user(carol)
    assert following is not None
    plans = {
        "carol's first page": _plan(listing.page_query(carol)),
        "carol's second page": _plan(listing.page_query(carol, following)),
    }
    failures = {name: _problems(plan) for name, plan in plans.items()}
    failures["alice's first page"] = _problems(_plan(listing.page_query(alice)), strict=False)
    assert not any(failures.values()), json.dumps(failures, indent=1)
    # the plan reader itself: a page of the old query (a sort of all carol's tables) fails
    old = selectors.tables_for_user(carol).defer("state")[: SIZE + 1]
    assert _problems(_plan(old))


@pytest.mark.parametrize("result", ["", "won", "lost"])
def test_a_page_of_finished_matches_is_an_index_range_too(bob, carol, result):
    """ "Partidas terminadas" (``tables.history``): its first page, a page deep in the
    list (after a cursor) and the one before that (read backwards, 500 rows in front
    of it), all matches or those won or lost (every other one), each read the group of
    finished tables of ``seat_my_tables`` up to the page (two pages' rows with a filter
    that keeps half), the tables by primary key."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: EXPLAIN (ANALYZE, FORMAT JSON)")
    finished = many_tables(carol, bob, 2000)["finished"]
    Table.objects.filter(pk__in=finished[::2]).update(winners=[1])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tables_seat")
        cursor.execute("ANALYZE tables_table")
    where = history.history_filter(carol, result)
    seat = listing.page_query(carol, "", 500, group=LIST_OVER, where=where)[499]
    deep = listing.cursor_of(seat)  # after the 500th
    newer = history.history_page(carol, deep, where=where).newer
    assert newer

    def query(cursor="", backwards=False):
        return listing.page_query(
            carol, cursor, history.PAGE_SIZE, group=LIST_OVER, where=where, newer=backwards
        )

    plans = {"first": query(), "deep": query(deep), "before it": query(newer, backwards=True)}
    failures = {name: _problems(_plan(rows)) for name, rows in plans.items()}
    assert not any(failures.values()), json.dumps(failures, indent=1)
