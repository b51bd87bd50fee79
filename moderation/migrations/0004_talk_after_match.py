"""A talk message records whether the match was already over when it was written
(``TalkMessage.after_match``), so that its marker says so instead of naming the last
move. Messages written before this field are marked when they came after the table's
``finished_at``."""

from django.db import migrations, models
from django.db.models import F


def mark_after_match(apps, schema_editor):
    TalkMessage = apps.get_model("moderation", "TalkMessage")
    TalkMessage.objects.filter(
        table__finished_at__isnull=False, created_at__gt=F("table__finished_at")
    ).update(after_match=True)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_moderators_see_phones"),
    ]

    operations = [
        migrations.AddField(
            model_name="talkmessage",
            name="after_match",
            field=models.BooleanField(
                default=False,
                help_text="Escrito con la partida ya terminada.",
                verbose_name="tras la partida",
            ),
        ),
        migrations.RunPython(mark_after_match, migrations.RunPython.noop),
    ]
