"""``NoticePreferences.time_zone_chosen``: whether the player (or their browser) set the
time zone. A zone other than the default "UTC" was chosen; "UTC" is taken as the
default, so the browser's zone is offered once more."""

from django.db import migrations, models


def mark_chosen(apps, schema_editor):
    preferences = apps.get_model("notices", "NoticePreferences")
    preferences.objects.exclude(time_zone="UTC").update(time_zone_chosen=True)


class Migration(migrations.Migration):
    dependencies = [("notices", "0005_push_due_index")]

    operations = [
        migrations.AddField(
            model_name="noticepreferences",
            name="time_zone_chosen",
            field=models.BooleanField(
                default=False, editable=False, verbose_name="zona horaria elegida"
            ),
        ),
        migrations.RunPython(mark_chosen, migrations.RunPython.noop),
    ]
