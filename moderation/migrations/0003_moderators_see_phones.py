"""Moderators may see the native apps' phones (django-push-notifications' device rows, in
the read-only admin of ``notices.admin``: whose, the name, the token's last characters):
``push_notifications.view_gcmdevice`` and ``view_apnsdevice`` join the "Moderadores"
group. Nothing else changes."""

from django.db import migrations

GROUP = "Moderadores"
PERMISSIONS = [
    ("push_notifications", "gcmdevice", "view_gcmdevice"),
    ("push_notifications", "apnsdevice", "view_apnsdevice"),
]


def _permissions(apps):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after migrate: make them now.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Permission = apps.get_model("auth", "Permission")
    return [
        Permission.objects.get(content_type__app_label=app, content_type__model=model, codename=code)
        for app, model, code in PERMISSIONS
    ]


def add_permissions(apps, schema_editor):
    group = apps.get_model("auth", "Group").objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.add(*_permissions(apps))


def remove_permissions(apps, schema_editor):
    group = apps.get_model("auth", "Group").objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(*_permissions(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_moderators_group"),
        ("push_notifications", "0011_alter_apnsdevice_registration_id"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
