"""Existing seats of tables that are over get listed by when their table ended (tables
0016): the database is taken back to tables 0015, a playing table, a waiting one, a
match lost by absence two days after its last move, one closed as idle and an old ended
table without ``finished_at`` are made there, then migrated forward as a deployment
would, and back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.migrations import alice_and_bob, latest_migrations, migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tables", "0015_email_delivery_created_at_index")]
AFTER = [("tables", "0016_seat_list_moved_at_ended")]


def _made(old_apps, alice, bob, now) -> dict[str, int]:
    """The tables at 0015, each seat listed by its table's last move (as 0015 wrote)."""
    Table = old_apps.get_model("tables", "Table")
    Seat = old_apps.get_model("tables", "Seat")
    shapes = {
        "playing": ("playing", None, 1),
        "waiting": ("waiting", None, 2),
        "absent": ("finished", now - timedelta(days=1), 3),
        "idle": ("closed", now - timedelta(hours=2), 3),
        "no_end": ("finished", None, 3),
    }
    made = {}
    for number, (name, (status, finished, group)) in enumerate(shapes.items()):
        moved = now - timedelta(days=3, minutes=number)
        row = Table.objects.create(
            creator_id=alice.pk,
            status=status,
            seats=2,
            target=100,
            last_move_at=moved,
            finished_at=finished,
        )
        for index, user in enumerate((alice, bob)):
            Seat.objects.create(
                table=row,
                index=index,
                user_id=user.pk,
                team=index,
                list_group=group,
                list_moved_at=moved,
            )
        made[name] = row.pk
    return made


def _listed(apps) -> dict[int, set]:
    Seat = apps.get_model("tables", "Seat")
    listed: dict[int, set] = {}
    for seat in Seat.objects.all():
        listed.setdefault(seat.table_id, set()).add(seat.list_moved_at)
    return listed


def test_seats_of_ended_tables_are_listed_by_the_end_and_back():
    latest = latest_migrations()
    old_apps = migrate_to(BEFORE)
    now = timezone.now()
    try:
        alice, bob = alice_and_bob()
        made = _made(old_apps, alice, bob, now)
        new_apps = migrate_to(AFTER)
        Table = new_apps.get_model("tables", "Table")
        tables = {name: Table.objects.get(pk=pk) for name, pk in made.items()}
        after = _listed(new_apps)
        back = _listed(migrate_to(BEFORE))
    finally:
        migrate_to(latest)

    for name in ("playing", "waiting", "no_end"):
        assert after[made[name]] == {tables[name].last_move_at}, name
    for name in ("absent", "idle"):
        assert after[made[name]] == {tables[name].finished_at}, name
    assert all(back[pk] == {tables[name].last_move_at} for name, pk in made.items())
