"""One ``hand_over`` notice per person and table: the ends of a match's hands were one
row each; the newest is kept (it tells the last hand, as the folded row does)."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def keep_the_newest(apps, schema_editor):
    Notification = apps.get_model("notices", "Notification")
    hands = Notification.objects.filter(kind="hand_over")
    newest = hands.filter(recipient=OuterRef("recipient"), table=OuterRef("table")).order_by(
        "-created_at", "-pk"
    )
    hands.exclude(pk=Subquery(newest.values("pk")[:1])).delete()


class Migration(migrations.Migration):
    dependencies = [("notices", "0010_delivery_claims")]

    operations = [migrations.RunPython(keep_the_newest, migrations.RunPython.noop)]
