"""Running turns get their reminder time when ``Table.remind_at`` arrives (tables 0013).

The database is taken back to tables 0012, a 2-day and a 1-day turn and a bot's turn are
made there, then migrated forward as a deployment would: each human turn is reminded 24 h
before its deadline, or half its move time if that is less (R27, ``tables.move_time``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.support.migrations import latest_migrations, migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tables", "0012_hand_departures_and_short_snapshot")]
DAY = timedelta(days=1)


def test_running_turns_get_their_reminder_time():
    latest = latest_migrations()
    old_apps = migrate_to(BEFORE)
    now = timezone.now()
    try:
        # the accounts schema is the current one: only the tables go back
        alice = get_user_model().objects.create_user("alice", "alice@example.com", "x")
        Table = old_apps.get_model("tables", "Table")
        common = {"creator_id": alice.pk, "status": "playing", "last_move_at": now, "version": 3}
        common |= {"seats": 2, "target": 100}
        two_days = Table.objects.create(move_seconds=2 * 86400, deadline=now + DAY, **common)
        one_day = Table.objects.create(move_seconds=86400, deadline=now + DAY, **common)
        bot_turn = Table.objects.create(move_seconds=86400, deadline=None, **common)
    finally:
        new_apps = migrate_to(latest)

    Table = new_apps.get_model("tables", "Table")
    remind_at = dict(Table.objects.values_list("pk", "remind_at"))
    assert remind_at[two_days.pk] == now  # 24 h before a deadline 24 h away
    assert remind_at[one_day.pk] == now + DAY / 2  # half of 1 day before it
    assert remind_at[bot_turn.pk] is None
