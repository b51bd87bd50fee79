import pytest
from rest_framework.authtoken.models import Token

URL = "/api/v1/accounts/logout/"
pytestmark = pytest.mark.django_db


def test_it_ends_the_session(anonymous_client, alice):
    anonymous_client.force_login(alice)

    r = anonymous_client.post(URL)

    assert r.status_code == 204
    assert "_auth_user_id" not in anonymous_client.session
    assert anonymous_client.get("/api/v1/me/").status_code == 401


def test_it_revokes_the_token_it_was_called_with(api_client_for, alice, bob):
    client = api_client_for(alice)
    api_client_for(bob)

    r = client.post(URL)

    assert r.status_code == 204
    assert not Token.objects.filter(user=alice).exists()
    assert Token.objects.filter(user=bob).exists()
    assert client.get("/api/v1/me/").json()["code"] == "authentication_failed"
