"""The skeleton now also takes the look-alikes Unicode lists for lower-case letters only
(``ɑlice`` and ``ɡreg`` give ``allce`` and ``greg``, Cyrillic ``һоу`` gives ``hoy``) and
sets aside the signs ``.``, ``_``, ``-`` and ``+`` (``bob_`` and ``b.o.b`` give ``bob``):
every stored skeleton is computed again, with the same function 0004 filled them with,
so that a new ``bob`` meets an old ``bob_``. Names are untouched; old look-alikes may
share a skeleton (it is not unique)."""

from importlib import import_module

from django.db import migrations

fill_username_skeletons = import_module(
    "accounts.migrations.0004_username_skeleton"
).fill_username_skeletons


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_username_skeleton_folds_accents")]

    operations = [
        migrations.RunPython(fill_username_skeletons, migrations.RunPython.noop, elidable=True),
    ]
