"""A deleted player's name leaves the other players' notices: bob's talk notice from u05
("u05: 2 mensajes nuevos en la mesa 7") reads "jugador eliminado: …" once u05 deletes
the account, as the table's seat does, on the inbox page and in the API, in each
recipient's language (carol reads "deleted player")."""

from __future__ import annotations

import pytest
from django.test import Client

from notices.models import Notification
from tests.conftest import PASSWORD, _make_user
from tests.moderation.conftest import say
from tests.support.api import seated_clients
from tests.tasks.conftest import run_tasks  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def u05(django_user_model):
    return _make_user(django_user_model, "u05")


def test_bobs_inbox_no_longer_names_u05(api_client_for, run_tasks, u05, bob, carol):  # noqa: F811
    table_id, clients = seated_clients(api_client_for, [u05, bob, carol])
    with run_tasks():
        assert say(clients[0], table_id, "hola").status_code == 201
        assert say(clients[0], table_id, "¿otra?").status_code == 201
    bob_api = api_client_for(bob)
    before = bob_api.get("/api/v1/notifications/").json()
    assert any("u05: 2 mensajes nuevos" in n["text"] for n in before["results"]), before

    with run_tasks():
        deleted = clients[0].post("/api/v1/accounts/delete/", {"password": PASSWORD})
    assert deleted.status_code in (200, 204), deleted.content

    after = bob_api.get("/api/v1/notifications/").json()
    texts = [n["text"] for n in after["results"]]
    assert "u05" not in str(after), after
    assert any(t.startswith("jugador eliminado: 2 mensajes nuevos") for t in texts), texts
    page = Client()
    page.force_login(bob)
    inbox = page.get("/avisos/").content.decode()
    assert "u05" not in inbox
    assert "jugador eliminado" in inbox
    carols = Notification.objects.get(recipient=carol, kind="talk")
    assert carols.payload["authors"] == ["deleted player"]
    assert "u05" not in str(list(Notification.objects.values_list("payload", flat=True)))
