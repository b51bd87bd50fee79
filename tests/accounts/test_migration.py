"""Existing players move into allauth's EmailAddress and get a username key (issue 17).

The database is taken back to the schema before the change (accounts 0001), users are made
there with the old model (with and without an e-mail, and two whose names differ only in
case, as could be made before the constraint), then migrated forward as a deployment would.
"""

from __future__ import annotations

import pytest

from tests.support.migrations import latest_migrations, migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0001_initial")]


def test_existing_users_get_an_unverified_primary_address_and_a_unique_key():
    latest = latest_migrations()
    old_apps = migrate_to(BEFORE)
    try:
        OldUser = old_apps.get_model("accounts", "User")
        with_email = OldUser.objects.create(username="Olga", email="Olga@Example.com")
        without = OldUser.objects.create(username="pablo", email="")
        twin_upper = OldUser.objects.create(username="Bob", email="bob@example.com")
        twin_lower = OldUser.objects.create(username="bob", email="bob2@example.com")
    finally:
        new_apps = migrate_to(latest)

    User = new_apps.get_model("accounts", "User")
    EmailAddress = new_apps.get_model("account", "EmailAddress")
    olga = EmailAddress.objects.get(user_id=with_email.pk)
    assert (olga.email, olga.primary, olga.verified) == ("olga@example.com", True, False)
    assert not EmailAddress.objects.filter(user_id=without.pk).exists()
    keys = dict(User.objects.values_list("pk", "username_key"))
    assert keys[with_email.pk] == "olga"
    assert keys[without.pk] == "pablo"
    assert keys[twin_upper.pk] == "bob"
    assert keys[twin_lower.pk] == f"bob#{twin_lower.pk}", "the later twin keeps signing in"
    assert EmailAddress.objects.count() == 3


def test_migrated_users_sign_in_and_are_asked_to_verify(client):
    latest = latest_migrations()
    old_apps = migrate_to(BEFORE)
    try:
        from django.contrib.auth.hashers import make_password

        OldUser = old_apps.get_model("accounts", "User")
        OldUser.objects.create(
            username="olga", email="olga@example.com", password=make_password("old-pass-phrase-1")
        )
        OldUser.objects.create(username="pablo", email="", password=make_password("old-pass-2x"))
    finally:
        migrate_to(latest)

    for login in ("olga", "olga@example.com"):
        password = "old-pass-phrase-1"
        r = client.post("/accounts/login/", {"login": login, "password": password})
        assert r.status_code == 302, (login, r.content[:300])
        page = client.get("/accounts/settings/").content.decode()
        assert "sin verificar" in page
        client.post("/accounts/logout/")

    client.post("/accounts/login/", {"login": "pablo", "password": "old-pass-2x"})
    page = client.get("/accounts/settings/").content.decode()
    assert "Tu cuenta no tiene correo" in page
