import pytest

pytestmark = pytest.mark.django_db


def test_it_deactivates_the_selected_users(client, django_user_model, alice, mallory):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)

    selected = {"action": "deactivate_users", "_selected_action": [mallory.pk]}
    assert client.post("/admin/accounts/user/", selected).status_code == 200  # the reason
    r = client.post("/admin/accounts/user/", {**selected, "reason": "spam", "apply": "1"})

    assert r.status_code == 302
    mallory.refresh_from_db()
    alice.refresh_from_db()
    assert mallory.is_active is False
    assert alice.is_active is True


def test_the_user_admin_shows_the_preferences(client, django_user_model, alice):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)

    page = client.get(f"/admin/accounts/user/{alice.pk}/change/").content.decode()

    assert 'name="pip_colour"' in page
    assert 'name="email_notifications"' in page


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_admin_index_names_each_section_once(client, django_user_model, language):
    """Our accounts app and allauth's e-mail addresses were both "Cuentas" (the last look,
    session 6): a moderator could not tell the two sections apart."""
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    admin.language = language
    admin.save()
    client.force_login(admin)
    response = client.get("/admin/", HTTP_ACCEPT_LANGUAGE=language)
    names = [str(app["name"]) for app in response.context["app_list"]]
    assert len(names) == len(set(names)), names
