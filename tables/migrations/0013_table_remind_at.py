"""``Table.remind_at``: when a turn's reminder is due, stored at the turn's start, so the
reminder sweep reads a range of an index no other sweep shares (the old index on
``deadline`` competed with the absence sweep's, and the planner could pick that one and
read every reminded turn). Running turns get theirs from their deadline and move time."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations, models


def backfill(apps, schema_editor):
    """``remind_at`` of every running human turn: its deadline less the reminder lead
    (``REMINDER_SECONDS``, at most half the table's move time), as ``set_turn`` does."""
    Table = apps.get_model("tables", "Table")
    lead = models.Func(
        models.Value(settings.REMINDER_SECONDS),
        models.F("move_seconds") / 2,
        function="LEAST",
        output_field=models.IntegerField(),
    )
    Table.objects.filter(status="playing", deadline__isnull=False).update(
        remind_at=models.ExpressionWrapper(
            models.F("deadline") - lead * models.Value(timedelta(seconds=1)),
            output_field=models.DateTimeField(),
        )
    )


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
