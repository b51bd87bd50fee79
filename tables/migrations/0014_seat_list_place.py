"""``Seat.list_group`` and ``Seat.list_moved_at``: each player's seat row says where its
table falls in their "my tables" list (their turn, playing, waiting, over; the table's
last move), so a page of that list is a range of the partial index ``seat_my_tables``
instead of a sort of all their tables. Existing seats get theirs from their tables, as
``tables.services.transitions.list_rows`` computes them."""

from django.db import migrations, models
from django.db.models import Exists, OuterRef, Q, Subquery


def backfill(apps, schema_editor):
    """Every seat's list place, in one UPDATE: group 0 when its table is playing and the
    seat to act is this seat or another the same person holds (``seven_plus_seven``),
    1 another playing table, 2 waiting, 3 over; ``list_moved_at`` the table's
    ``last_move_at``."""
    Seat = apps.get_model("tables", "Seat")
    Table = apps.get_model("tables", "Table")
    table = Table.objects.filter(pk=OuterRef("table_id"))
    playing = Exists(table.filter(status="playing"))
    waiting = Exists(table.filter(status="waiting"))
    own_turn = Exists(table.filter(status="playing", turn_seat=OuterRef("index")))
    pair_turn = Exists(
        Seat.objects.filter(
            table_id=OuterRef("table_id"),
            user_id=OuterRef("user_id"),
            table__status="playing",
            index=models.F("table__turn_seat"),
        )
    )
    Seat.objects.update(
        list_moved_at=Subquery(table.values("last_move_at")[:1]),
        list_group=models.Case(
            models.When(Q(own_turn) | Q(pair_turn), then=models.Value(0)),
            models.When(playing, then=models.Value(1)),
            models.When(waiting, then=models.Value(2)),
            default=models.Value(3),
        ),
    )


class Migration(migrations.Migration):
    dependencies = [("tables", "0013_table_remind_at")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="list_group",
            field=models.PositiveSmallIntegerField(
                default=2,
                editable=False,
                help_text="The table's group in this player's list: 0 their turn, 1 "
                "playing, 2 waiting for players, 3 over (tables.seating.list_group).",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="list_moved_at",
            field=models.DateTimeField(
                editable=False,
                null=True,
                help_text="The table's last_move_at, copied for this player's list.",
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="seat",
            name="list_moved_at",
            field=models.DateTimeField(
                editable=False,
                help_text="The table's last_move_at, copied for this player's list.",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=Q(user__isnull=False, second_hand=False),
                fields=["user", "list_group", "-list_moved_at", "-table"],
                name="seat_my_tables",
            ),
        ),
    ]
