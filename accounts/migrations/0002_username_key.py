"""Case- and width-insensitive usernames, as a database constraint.

``username_key`` is the NFKC-normalised, case-folded username (``accounts.models.
username_key``), unique. Existing rows get theirs here; should two old accounts already
share one (``Bob`` and ``bob``, made before this constraint), the later one's key gets its
id appended, so that the migration never fails and both accounts keep signing in.
"""

import unicodedata

from django.db import migrations, models


def _key(username):
    folded = unicodedata.normalize("NFKC", username or "").casefold()
    return unicodedata.normalize("NFKC", folded)


def fill_username_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        key = _key(user.username)
        if key in taken:
            key = f"{key}#{user.pk}"
        taken.add(key)
        User.objects.filter(pk=user.pk).update(username_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=1024, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="session_generation",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill_username_keys, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(
                editable=False,
                help_text="El nombre sin mayúsculas ni variantes de anchura: único.",
                max_length=1024,
                unique=True,
                verbose_name="nombre normalizado",
            ),
        ),
    ]
