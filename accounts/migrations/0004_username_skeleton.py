"""Look-alike usernames (tester's findings, item 1): ``username_skeleton`` is what a name
looks like whatever the script, case or width of its letters (``accounts.models.
username_skeleton``), indexed so that sign-up refuses a new name that looks like an
existing one. Not unique: old accounts that already look alike keep their names.
"""

from django.db import migrations, models

from accounts.models import username_skeleton


def fill_username_skeletons(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    batch = []
    for user in User.objects.order_by("pk").only("pk", "username").iterator(chunk_size=1000):
        user.username_skeleton = username_skeleton(user.username)
        batch.append(user)
        if len(batch) == 1000:
            User.objects.bulk_update(batch, ["username_skeleton"])
            batch = []
    User.objects.bulk_update(batch, ["username_skeleton"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_email_addresses")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(
                db_index=True,
                default="",
                editable=False,
                help_text="A qué se parece el nombre, sea cual sea el alfabeto de sus letras.",
                max_length=1024,
                verbose_name="forma del nombre",
            ),
        ),
        migrations.RunPython(fill_username_skeletons, migrations.RunPython.noop, elidable=False),
    ]
