"""The data download holds the player's own talk messages and the reports they made;
never someone else's message, nor a report made about them (its reporter stays unnamed)."""

from __future__ import annotations

import pytest
from django.test import Client

from moderation import services as moderation_services
from moderation.models import TalkMessage
from tests.moderation.conftest import say
from tests.support.api import seated_clients

pytestmark = pytest.mark.django_db


def _report(client, table_id: int, **body):
    answer = client.post(f"/api/v1/tables/{table_id}/reports/", body, format="json")
    assert answer.status_code == 201, answer.json()


def test_alices_download_has_her_messages_and_her_reports(api_client_for, alice, bob, carol):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    alice_api, bob_api = clients[0], clients[1]
    assert say(alice_api, table_id, "hola, suerte").status_code == 201
    assert say(bob_api, table_id, "eres malísima").status_code == 201
    assert say(alice_api, table_id, "gracias").status_code == 201
    bobs = TalkMessage.objects.get(author=bob)
    _report(alice_api, table_id, message=bobs.pk, reason="insults", text="me insulta")
    _report(bob_api, table_id, seat=0, reason="spam")  # bob's report about alice
    removed = TalkMessage.objects.get(author=alice, text="gracias")
    moderator = type(alice).objects.create_superuser("root", "root@example.com", "pw")
    moderation_services.message_remove(moderator=moderator, message_id=removed.pk, reason="x")

    data = api_client_for(alice).get("/api/v1/accounts/data/").json()

    assert [(m["table"], m["text"], m["removed"]) for m in data["talk_messages"]] == [
        (table_id, "hola, suerte", False),
        (table_id, "gracias", True),
    ]
    assert [
        (r["table"], r["message"], r["reported"], r["reason"], r["text"])
        for r in data["reports_made"]
    ] == [(table_id, bobs.pk, "bob", "insults", "me insulta")]
    flat = str(data)
    assert "eres malísima" not in flat
    assert "spam" not in flat

    page = Client()
    page.force_login(alice)
    download = page.get("/accounts/settings/data/")
    assert download.json()["talk_messages"] == data["talk_messages"]
    assert download.json()["reports_made"] == data["reports_made"]


def test_bobs_download_does_not_name_who_reported_him(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    _report(clients[0], table_id, seat=1, reason="cheating", text="hace señas")
    data = api_client_for(bob).get("/api/v1/accounts/data/").json()
    assert data["reports_made"] == []
    assert "hace señas" not in str(data) and "cheating" not in str(data)
