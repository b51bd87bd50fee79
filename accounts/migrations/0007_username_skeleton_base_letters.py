"""The skeleton now reads a Latin letter "with" a hook, a bar or a stroke as its letter
(``ɓob`` gives ``bob``, ``ꞓarol`` gives ``carol``, ``hoƴ`` gives ``hoy``): every stored
skeleton is computed again, with the same function 0004 filled them with. Names are
untouched; old look-alikes may share a skeleton (it is not unique)."""

from importlib import import_module

from django.db import migrations

fill_username_skeletons = import_module(
    "accounts.migrations.0004_username_skeleton"
).fill_username_skeletons


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_username_skeleton_lower_case_and_signs")]

    operations = [
        migrations.RunPython(fill_username_skeletons, migrations.RunPython.noop, elidable=True),
    ]
