"""``Table.remind_at``: when a turn's reminder is due, stored at the turn's start, so the
reminder sweep reads a range of an index no other sweep shares (the old index on
``deadline`` competed with the absence sweep's, and the planner could pick that one and
read every reminded turn). Running turns get theirs from their deadline and move time."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models


def backfill(apps, schema_editor):
    """``remind_at`` of every running human turn: its deadline less the reminder lead
    (``REMINDER_SECONDS``, at most half the table's move time), as ``set_turn`` does.
    Computed here, not in SQL, so that it runs on every database (SQLite has no
    ``LEAST`` over a duration); a thousand rows an UPDATE."""
    Table = apps.get_model("tables", "Table")
    running = Table.objects.filter(status="playing", deadline__isnull=False).only(
        "deadline", "move_seconds"
    )
    batch = []
    for table in running.iterator(chunk_size=1000):
        lead = min(settings.REMINDER_SECONDS, table.move_seconds // 2)
        table.remind_at = table.deadline - timedelta(seconds=lead)
        batch.append(table)
        if len(batch) == 1000:
            Table.objects.bulk_update(batch, ["remind_at"])
            batch = []
    Table.objects.bulk_update(batch, ["remind_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_hand_departures_and_short_snapshot"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="table",
            name="table_reminder_due",
        ),
        migrations.AddField(
            model_name="table",
            name="remind_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(
                condition=models.Q(
                    ("status", "playing"),
                    models.Q(("reminded_version", models.F("version")), _negated=True),
                ),
                fields=["remind_at"],
                name="table_reminder_due",
            ),
        ),
    ]
