"""Finished hands live in their own rows: ``Hand.departures`` keeps who left a hand
(``leavers_sit_out`` profiles, which the Move rows do not say), and every table's
snapshot is trimmed to its last two hands (``tables.services.transitions.SNAPSHOT_HANDS``),
their departures copied to the Hand rows first. Plain JSON work, no engine import:
reversing keeps the trimmed snapshots (the record is built from the rows either way)."""

from django.db import migrations, models

#: Hands a snapshot keeps (tables.services.transitions.SNAPSHOT_HANDS when this was written).
KEPT = 2
BATCH = 500


def trim_snapshots(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    Hand = apps.get_model("tables", "Hand")
    tables = Table.objects.exclude(state=None).only("pk", "state").order_by("pk")
    changed = []
    for table in tables.iterator(chunk_size=BATCH):
        hands = table.state.get("hands") or []
        for hand in hands:  # a finished hand's departures, before the snapshot drops it
            if hand.get("departures") and hand.get("result") is not None:
                Hand.objects.filter(table_id=table.pk, number=hand["number"]).update(
                    departures=hand["departures"]
                )
        if len(hands) <= KEPT:
            continue
        table.state = {**table.state, "hands": hands[-KEPT:]}
        changed.append(table)
        if len(changed) >= BATCH:
            Table.objects.bulk_update(changed, ["state"])
            changed = []
    Table.objects.bulk_update(changed, ["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0011_analysis_and_public_replay"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="departures",
            field=models.JSONField(
                blank=True,
                default=list,
                editable=False,
                help_text="[[seat, after]]: the seats that left the hand after that many of "
                "its actions (leavers_sit_out profiles), written when the hand ends.",
                verbose_name="salidas",
            ),
        ),
        migrations.RunPython(trim_snapshots, migrations.RunPython.noop),
    ]
