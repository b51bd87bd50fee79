"""Undelivered outbox rows of task names become the events they followed (tables 0020).

The database is taken back to tables 0019, where the outbox kept task names and their
arguments; rows a deployment could leave behind (a lost kick) are written there, then
migrated forward: each becomes its event, which the relay delivers to the subscribers."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tables import events
from tests.support.migrations import latest_migrations, migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tables", "0019_table_event")]


def test_undelivered_task_rows_become_their_events():
    latest = latest_migrations()
    old_apps = migrate_to(BEFORE)
    try:
        alice = get_user_model().objects.create_user("alice", "alice@example.com", "x")
        Table = old_apps.get_model("tables", "Table")
        TableEvent = old_apps.get_model("tables", "TableEvent")
        common = {"creator_id": alice.pk, "last_move_at": timezone.now(), "seats": 2}
        common |= {"target": 100}
        table = Table.objects.create(status="playing", version=4, turn_seat=1, **common)
        rematch = Table.objects.create(status="waiting", rematch_of=table, **common)
        rows = [
            ("tables.tasks.bot_play", [table.pk, 4], table.pk),
            ("notices.tasks.record_turn", [table.pk, 4], table.pk),
            ("notices.tasks.record_hand_over", [table.pk, 2], table.pk),
            ("notices.tasks.record_match_over", [table.pk, 0], table.pk),
            ("notices.tasks.record_seat_left", [table.pk, alice.pk, "ana", 1, 3], table.pk),
            ("notices.tasks.record_rematch_offered", [rematch.pk], rematch.pk),
            ("notices.moderation_tasks.record_talk", [table.pk, [7, 8]], table.pk),
            ("tables.tasks.analyse_match", [5], None),
        ]
        for task, args, table_id in rows:
            TableEvent.objects.create(table_id=table_id, version=4, task=task, args=args)
        TableEvent.objects.create(
            table_id=table.pk,
            task="notices.tasks.record_turn",
            args=[table.pk, 1],
            delivered_at=timezone.now(),
        )
    finally:
        new_apps = migrate_to(latest)

    TableEvent = new_apps.get_model("tables", "TableEvent")
    pending = TableEvent.objects.filter(delivered_at__isnull=True).order_by("pk")
    got = [events.event_of(r.kind, r.table_id, r.version, r.payload) for r in pending]
    assert got == [
        events.TurnStarted(table_id=table.pk, version=4, seat=1, bot=True),
        events.TurnStarted(table_id=table.pk, version=4, seat=1, bot=False),
        events.HandEnded(table_id=table.pk, version=4, number=2),
        events.MatchEnded(table_id=table.pk, version=4, closed_by=0),
        events.SeatLeft(table_id=table.pk, version=3, user_id=alice.pk, name="ana", seat_index=1),
        events.RematchOffered(table_id=table.pk, version=4, rematch_id=rematch.pk),
        events.TalkPosted(table_id=table.pk, version=4, message_ids=[7, 8]),
        events.AnalysisRequested(table_id=None, version=0, analysis_id=5),
    ]
    assert TableEvent.objects.filter(delivered_at__isnull=False).count() == 1
