"""A table that is over is listed by when it ended (``Table.finished_at``), not by its
last move: a match lost by absence (R27) ends two days or more after its last move, one
closed as idle (R28) a week after. Existing seats of ended tables get their table's
``finished_at`` as their ``list_moved_at``, as ``tables.services.transitions.list_time`` now
computes it; an ended table without ``finished_at`` keeps its last move."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

ENDED = ("finished", "closed")


def _ended_seats(apps):
    Seat = apps.get_model("tables", "Seat")
    return Seat.objects.filter(table__status__in=ENDED, table__finished_at__isnull=False)


def by_end(apps, schema_editor):
    """One UPDATE: each seat of an ended table takes that table's ``finished_at``."""
    Table = apps.get_model("tables", "Table")
    ended = Table.objects.filter(pk=OuterRef("table_id")).values("finished_at")[:1]
    _ended_seats(apps).update(list_moved_at=Subquery(ended))


def by_last_move(apps, schema_editor):
    """Backwards: the seats of ended tables are listed by their table's last move again."""
    Table = apps.get_model("tables", "Table")
    moved = Table.objects.filter(pk=OuterRef("table_id")).values("last_move_at")[:1]
    _ended_seats(apps).update(list_moved_at=Subquery(moved))


class Migration(migrations.Migration):
    dependencies = [("tables", "0015_email_delivery_created_at_index")]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="list_moved_at",
            field=models.DateTimeField(
                editable=False,
                help_text="The table's last_move_at, or its finished_at once over, copied "
                "for this player's list (tables.services.transitions.list_time).",
            ),
        ),
        migrations.RunPython(by_end, by_last_move, elidable=False),
    ]
