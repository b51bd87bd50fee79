"""The inbox and the table talk write their times in the player's zone, but never said
which: a player in Havana reading "3 dic 2025, 13:09" could not tell it from UTC's. Now
they name it as the admin's header does ("Fechas en hora de America/Havana."; one
sentence, ``templates/notices/_time_zone_note.html``): the inbox its zone (UTC while none
is saved), the talk the zone its script writes in (the saved one, else the browser's,
which the script names: ``static/js/table/talk.js``)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from notices.models import NoticePreferences, Notification
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db


def _page(user, path: str) -> str:
    client = Client()
    client.force_login(user)
    return " ".join(client.get(path).content.decode().split())


def _in_havana(user) -> None:
    NoticePreferences.objects.create(user=user, time_zone="America/Havana", time_zone_chosen=True)


def _with_a_notice(user, friend) -> None:
    table = seat_friends(user, [friend])
    Notification.objects.create(
        recipient=user, table=table, kind="friend_joined", key="x", payload={"joined": "bob"}
    )


def _talk_zone(page: str) -> str:
    """The talk panel's zone line, as the server wrote it."""
    return re.search(r'<p id="talk-zone" class="time-zone-note">([^<]*)</p>', page).group(1)


@pytest.mark.parametrize(("havana", "zone"), [(True, "America/Havana"), (False, "UTC")])
def test_the_inbox_names_the_zone_of_its_times(alice, bob, havana, zone):
    if havana:
        _in_havana(alice)
    _with_a_notice(alice, bob)

    page = _page(alice, "/avisos/")

    assert f'<p class="time-zone-note">Fechas en hora de {zone}.</p>' in page


def test_the_inbox_in_english_names_it_too(alice, bob):
    _in_havana(alice)
    alice.language = "en"
    alice.save(update_fields=["language"])
    _with_a_notice(alice, bob)
    client = Client(headers={"accept-language": "en"})
    client.force_login(alice)

    page = client.get("/avisos/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "Dates in America/Havana time." in page


def test_the_talk_names_the_saved_zone(alice, bob):
    _in_havana(alice)
    table = seat_friends(alice, [bob])

    page = _page(alice, f"/mesas/{table.pk}/")

    assert _talk_zone(page) == "Fechas en hora de America/Havana."


def test_without_a_chosen_zone_the_talk_names_the_browsers(alice, bob):
    """The talk then writes in the browser's zone, which only its script knows: the page
    claims no zone (not UTC) and hands the script the sentence to name it with."""
    table = seat_friends(alice, [bob])

    page = _page(alice, f"/mesas/{table.pk}/")

    assert _talk_zone(page) == ""
    words = re.search(r'<script id="talk-strings" type="application/json">(.*?)</script>', page)
    assert json.loads(words.group(1))["time_zone"] == "Fechas en hora de %(zone)s."
