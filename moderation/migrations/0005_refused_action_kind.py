"""The moderation log's "refused" kind: an action its moderator was not allowed to take
(on a superuser, a staff member or themselves; ``moderation.services.protection``)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('moderation', '0004_talk_after_match'),
    ]

    operations = [
        migrations.AlterField(
            model_name='moderationaction',
            name='kind',
            field=models.CharField(choices=[('close_table', 'Mesa cerrada'), ('remove_message', 'Mensaje retirado'), ('warn', 'Aviso'), ('suspend', 'Suspensión'), ('deactivate', 'Cuenta desactivada'), ('dismiss_report', 'Reporte descartado'), ('refused', 'Acción rechazada')], max_length=16, verbose_name='acción'),
        ),
    ]
