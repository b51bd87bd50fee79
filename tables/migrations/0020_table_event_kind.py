"""A ``TableEvent`` row holds an event (``kind`` and ``payload``, ``tables.events``) instead
of a task name and its arguments: the services record what happened and the apps'
subscribers decide what follows. Rows still undelivered are rewritten as the event their
task followed; a row of a task no event stands for is dropped (none is written today)."""

from django.db import migrations, models

#: The task each kind of row named, with the event it followed: (kind, table of the
#: event, version, payload) from the task's arguments and the table's row.
_TASKS = {
    "tables.tasks.bot_play": "turn_started",
    "notices.tasks.record_turn": "turn_started",
    "notices.tasks.record_hand_over": "hand_ended",
    "notices.tasks.record_match_over": "match_ended",
    "notices.tasks.record_seat_taken": "seat_taken",
    "notices.tasks.record_seat_left": "seat_left",
    "notices.tasks.record_rematch_offered": "rematch_offered",
    "tables.tasks.analyse_match": "analysis_requested",
    "notices.moderation_tasks.record_talk": "talk_posted",
    "notices.moderation_tasks.record_moderation": "moderation_acted",
}


def _event(row, table_of):
    """``(table_id, version, kind, payload)`` for an old row, or ``None``."""
    kind, args = _TASKS.get(row.task), list(row.args)
    if kind is None:
        return None
    if kind == "turn_started":
        table = table_of(args[0])
        seat = table.turn_seat if table is not None and table.turn_seat is not None else 0
        bot = row.task == "tables.tasks.bot_play"
        return args[0], args[1], kind, {"seat": seat, "bot": bot, "same_player": False}
    if kind == "hand_ended":
        return args[0], row.version, kind, {"number": args[1]}
    if kind == "match_ended":
        return args[0], row.version, kind, {"closed_by": args[1] if len(args) > 1 else None}
    if kind == "seat_taken":
        return args[0], row.version, kind, {"user_id": args[1]}
    if kind == "seat_left":
        payload = {"user_id": args[1], "name": args[2], "seat_index": args[3]}
        return args[0], args[4], kind, payload
    if kind == "rematch_offered":
        rematch = table_of(args[0])
        of = rematch.rematch_of_id if rematch is not None else None
        return of, row.version, kind, {"rematch_id": args[0]}
    if kind == "analysis_requested":
        return None, 0, kind, {"analysis_id": args[0]}
    if kind == "talk_posted":
        return args[0], row.version, kind, {"message_ids": list(args[1])}
    return None, 0, kind, {"action_id": args[0]}


def tasks_to_events(apps, schema_editor):
    TableEvent = apps.get_model("tables", "TableEvent")
    Table = apps.get_model("tables", "Table")

    def table_of(table_id):
        return Table.objects.filter(pk=table_id).first()

    for row in TableEvent.objects.filter(delivered_at__isnull=True).iterator():
        event = _event(row, table_of)
        if event is None:
            row.delete()
            continue
        row.table_id, row.version, row.task, row.args = event
        row.save(update_fields=["table", "version", "task", "args"])
    # Delivered rows are kept only to be forgotten: they become no event.
    TableEvent.objects.filter(delivered_at__isnull=False).update(task="delivered", args={})


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0019_table_event"),
    ]

    operations = [
        migrations.RunPython(tasks_to_events, migrations.RunPython.noop, elidable=True),
        migrations.RenameField("tableevent", "task", "kind"),
        migrations.AlterField(
            model_name="tableevent", name="kind", field=models.CharField(max_length=50)
        ),
        migrations.RenameField("tableevent", "args", "payload"),
        migrations.AlterField(
            model_name="tableevent", name="payload", field=models.JSONField(default=dict)
        ),
        migrations.RemoveField("tableevent", "options"),
        migrations.RemoveField("tableevent", "not_before"),
    ]
