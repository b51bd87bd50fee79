"""A seat keeps its place when its player deletes the account: ``user`` is
cleared, ``player_deleted`` set, and the seat reads «jugador eliminado». A table's
``creator`` may be cleared the same way."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0004_email_delivery_bot_requeued_at"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="player_deleted",
            field=models.BooleanField(
                default=False,
                editable=False,
                help_text="Held by a player who deleted their account: shown as «jugador eliminado».",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="creator",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="created_tables",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
