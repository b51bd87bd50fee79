"""``Hand.departures`` is written as a seat leaves a hand that goes on
(``leavers_sit_out``), no longer only when the hand ends: the hands still being played,
and those a match's last-but-one leaver left unfinished, get the departures their table's
snapshot holds, so that every table's log replays to its snapshot. Plain JSON work, no
engine import; reversing leaves the rows as they are (the snapshot still says it)."""

from django.db import migrations, models

BATCH = 500


def copy_departures(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    Hand = apps.get_model("tables", "Hand")
    tables = Table.objects.exclude(state=None).only("pk", "state").order_by("pk")
    for table in tables.iterator(chunk_size=BATCH):
        for hand in table.state.get("hands") or []:
            if hand.get("departures"):
                Hand.objects.filter(table_id=table.pk, number=hand["number"]).exclude(
                    departures=hand["departures"]
                ).update(departures=hand["departures"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0017_delivery_claims"),
    ]

    operations = [
        migrations.AlterField(
            model_name="hand",
            name="departures",
            field=models.JSONField(
                blank=True,
                default=list,
                editable=False,
                help_text="[[seat, after]]: the seats that left the hand after that many of "
                "its actions (leavers_sit_out profiles), written as each seat leaves.",
                verbose_name="salidas",
            ),
        ),
        migrations.RunPython(copy_departures, migrations.RunPython.noop),
    ]
