"""The admin shows a quick phrase in words, as the players read it: a report of dani's
"Gracias" showed "thanks" (the phrase's key) on the report's page, in the queue's excerpt
and on the talk message's own page; "Suerte" around it read "good_luck"."""

from __future__ import annotations

import pytest
from django.test import Client

from moderation.models import Report
from tests.moderation.conftest import say, talk

pytestmark = pytest.mark.django_db


def _admin(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def phrase_reported(four_seats):
    """carla wishes luck, dani thanks (both quick phrases); carla reports dani's."""
    table_id, clients = four_seats
    assert clients["ana"].post(f"/api/v1/tables/{table_id}/abandon/").status_code == 200
    assert say(clients["carla"], table_id, phrase="good_luck").status_code == 201
    assert say(clients["dani"], table_id, phrase="thanks").status_code == 201
    thanks = talk(clients["carla"], table_id)["messages"][1]
    reported = clients["carla"].post(
        f"/api/v1/tables/{table_id}/reports/",
        {"message": thanks["id"], "reason": "spam"},
        format="json",
    )
    assert reported.status_code == 201, reported.json()
    return Report.objects.get()


def test_the_report_page_shows_the_phrases_words_not_their_keys(phrase_reported, mod):
    html = _admin(mod).get(f"/admin/moderation/report/{phrase_reported.pk}/change/")
    assert html.status_code == 200
    page = html.content.decode()
    assert '<p class="mod-talk-text">Suerte</p>' in page
    assert '<p class="mod-talk-text">Gracias</p>' in page
    assert "good_luck" not in page and ">thanks<" not in page


def test_the_queue_and_the_messages_pages_show_the_words(phrase_reported, mod):
    admin = _admin(mod)
    queue = admin.get("/admin/moderation/report/").content.decode()
    assert "Gracias" in queue and ">thanks<" not in queue
    messages = admin.get("/admin/moderation/talkmessage/").content.decode()
    assert "Suerte" in messages and "Gracias" in messages
    assert "good_luck" not in messages and ">thanks<" not in messages
    message_page = admin.get(
        f"/admin/moderation/talkmessage/{phrase_reported.message_id}/change/"
    ).content.decode()
    assert "Gracias" in message_page and ">thanks<" not in message_page


def test_an_english_moderator_reads_them_in_english(phrase_reported, mod):
    mod.language = "en"
    mod.save(update_fields=["language"])
    admin = _admin(mod)
    admin.cookies["django_language"] = "en"
    page = admin.get(f"/admin/moderation/report/{phrase_reported.pk}/change/").content.decode()
    assert '<p class="mod-talk-text">Good luck</p>' in page
    assert '<p class="mod-talk-text">Thanks</p>' in page
