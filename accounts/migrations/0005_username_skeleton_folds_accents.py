"""The skeleton now also sets aside accents and small capitals (``ÁLICE`` and ``ᴀlice``
give ``allce``, as ``alice`` does): every stored skeleton is computed again, with the
same function 0004 filled them with, so that a new ``alice`` meets an old ``Álice``.
Names are untouched; old look-alikes may share a skeleton (it is not unique)."""

from importlib import import_module

from django.db import migrations

fill_username_skeletons = import_module(
    "accounts.migrations.0004_username_skeleton"
).fill_username_skeletons


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_username_skeleton")]

    operations = [
        migrations.RunPython(fill_username_skeletons, migrations.RunPython.noop, elidable=True),
    ]
