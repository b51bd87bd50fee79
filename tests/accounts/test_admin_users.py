import pytest

pytestmark = pytest.mark.django_db


def test_it_deactivates_the_selected_users(client, django_user_model, alice, mallory):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)

    r = client.post(
        "/admin/accounts/user/",
        {"action": "deactivate_users", "_selected_action": [mallory.pk]},
    )

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
