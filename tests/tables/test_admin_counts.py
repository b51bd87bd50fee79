"""The admin changelists that grow with play (tables, hands, moves, users) never count a
whole table (``core.admin_pagination``): no "N of M" total, and a page count that reads
at most ``COUNT_LIMIT`` rows, or the planner's estimate for an unfiltered list."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.admin_pagination import COUNT_LIMIT, BoundedCountPaginator
from tables.models import Hand, Table
from tests.support.many_tables import many_tables

pytestmark = pytest.mark.django_db

GROWING = ("tables_table", "tables_hand", "tables_move", "accounts_user")
PAGES = (
    "/admin/tables/table/",
    "/admin/tables/table/?status__exact=finished",
    "/admin/tables/hand/",
    "/admin/tables/move/",
    "/admin/tables/move/?kind__exact=draw",
    "/admin/accounts/user/",
)


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.test", "pw-123456")


@pytest.mark.parametrize("path", PAGES)
def test_a_changelist_counts_no_whole_table(client, staff, alice, bob, path):
    many_tables(alice, bob, 30)
    client.force_login(staff)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    counts = [
        q["sql"]
        for q in queries
        if "COUNT(" in q["sql"].upper() and any(f'FROM "{t}"' in q["sql"] for t in GROWING)
    ]
    assert counts, path  # the page count is still shown...
    for sql in counts:  # ...but read from at most COUNT_LIMIT rows
        assert f"LIMIT {COUNT_LIMIT}" in sql, sql


def test_the_page_count_is_exact_below_the_limit(alice, bob):
    many_tables(alice, bob, 30)
    finished = Table.objects.filter(status="finished").order_by("-pk")
    assert BoundedCountPaginator(finished, 100).count == 30
    assert BoundedCountPaginator(Table.objects.order_by("-pk"), 100).count == 32


def test_the_hands_end_filter_lists_its_options_without_reading_the_hands(
    client, staff, alice, bob
):
    """Django's filter for a field without choices lists ``SELECT DISTINCT end`` over
    every hand (0.4 s at 900,000 hands); the options are the engine's fixed ends."""
    ids = many_tables(alice, bob, 3)["finished"]
    for table_id, end in zip(ids, ("domino", "blocked", ""), strict=True):
        Hand.objects.create(
            table_id=table_id,
            number=0,
            seed="seed",
            seed_sha256="sha",
            dealt=[],
            stock=[],
            leader=0,
            started_at=timezone.now(),
            end=end,
        )
    client.force_login(staff)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/admin/tables/hand/")
    assert response.status_code == 200
    hands_read = [q["sql"] for q in queries if 'FROM "tables_hand"' in q["sql"]]
    assert not [sql for sql in hands_read if "DISTINCT" in sql.upper()], hands_read
    for value, table_id in zip(("domino", "blocked", "in_progress"), ids, strict=True):
        assert f"?end={value}" in response.content.decode()
        listed = client.get("/admin/tables/hand/", {"end": value}).context["cl"].result_list
        assert [hand.table_id for hand in listed] == [table_id], value
