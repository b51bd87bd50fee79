"""Existing players' e-mail addresses into allauth's EmailAddress.

Each user with an e-mail gets one primary, *unverified* EmailAddress: no address was ever
verified before, and notices now wait for verification (tables.notifications), which the
settings page asks for. A user without an e-mail gets none; the settings page asks for
one. Running it twice adds nothing.
"""

from django.db import migrations


def copy_email_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    have = set(EmailAddress.objects.values_list("user_id", flat=True))
    rows = [
        EmailAddress(user_id=user.pk, email=user.email.lower(), primary=True, verified=False)
        for user in User.objects.exclude(email="").only("pk", "email")
        if user.pk not in have
    ]
    EmailAddress.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_username_key"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [
        migrations.RunPython(copy_email_addresses, migrations.RunPython.noop, elidable=False),
    ]
