"""A page a player may not see (the admin for someone who is not a moderator) or that
does not exist is the site's own page, in Spanish, with a way back: not Django's bare
English "403 Forbidden" / "Not Found"."""

import pytest

pytestmark = pytest.mark.django_db


def test_mallory_signed_in_at_the_admin_gets_the_sites_403_in_spanish(client, mallory):
    client.force_login(mallory)
    answer = client.get("/admin/", follow=True, HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "No puedes entrar aquí" in page and 'href="/"' in page
    assert "Forbidden" not in page


def test_a_page_that_does_not_exist_is_the_sites_404(client, alice, settings):
    settings.DEBUG = False
    client.force_login(alice)
    answer = client.get("/mesas/999999999/no-such-page/", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 404
    page = answer.content.decode()
    assert "Esta página no existe" in page and "Volver a mis mesas" in page
