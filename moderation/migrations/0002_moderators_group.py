"""The "Moderadores" group with exactly what a moderator needs (docs/moderation.md):
read tables, hands, moves, seats and users; close a table (change table); read and remove
talk messages; read and handle reports; read the moderation log and act (add a line).
Not the hidden hands (``tables.view_hidden_hands``): that is given to a person, not the
role. Giving someone the role: make them staff and add them to the group."""

from django.db import migrations

GROUP = "Moderadores"
PERMISSIONS = [
    ("accounts", "user", "view_user"),
    ("tables", "table", "view_table"),
    ("tables", "table", "change_table"),
    ("tables", "seat", "view_seat"),
    ("tables", "hand", "view_hand"),
    ("tables", "move", "view_move"),
    ("moderation", "talkmessage", "view_talkmessage"),
    ("moderation", "talkmessage", "change_talkmessage"),
    ("moderation", "report", "view_report"),
    ("moderation", "report", "change_report"),
    ("moderation", "moderationaction", "view_moderationaction"),
    ("moderation", "moderationaction", "add_moderationaction"),
]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after migrate: make them now.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    wanted = [
        Permission.objects.get(content_type__app_label=app, content_type__model=model, codename=code)
        for app, model, code in PERMISSIONS
    ]
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
