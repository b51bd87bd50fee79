"""The time zone a player never chose: the preferences said "UTC" to a browser in
Madrid until the player found the settings page. Now, while ``time_zone_chosen`` is false,
each page's head asks the browser's zone (``<meta name="time-zone-unset">`` and
``static/js/time_zone.js``, which sends it through the preferences API); any zone set,
by the form, the API or that script, is chosen and never guessed again. The settings page
says when the reminder really goes (``move_time.reminder_seconds``): it read "24 horas
antes" for every table, where a 1-day table is reminded at half its time."""

from __future__ import annotations

import pytest
from django.test import Client

from notices.models import NoticePreferences

pytestmark = pytest.mark.django_db

URL = "/api/v1/notifications/preferences/"
ASKS = '<meta name="time-zone-unset" content="/api/v1/notifications/preferences/"'


def _page(user, path="/") -> str:
    client = Client()
    client.force_login(user)
    return client.get(path).content.decode()


def test_pages_ask_the_browser_until_a_zone_is_set(api_client_for, alice):
    assert ASKS in _page(alice)
    answer = api_client_for(alice).patch(URL, {"time_zone": "Europe/Madrid"}, format="json")
    assert answer.status_code == 200 and answer.json()["time_zone_chosen"] is True
    assert ASKS not in _page(alice)
    assert NoticePreferences.objects.get(user=alice).time_zone == "Europe/Madrid"


def test_utc_chosen_is_kept(api_client_for, alice):
    client = api_client_for(alice)
    assert client.get(URL).json()["time_zone_chosen"] is False
    client.patch(URL, {"time_zone": "UTC"}, format="json")
    assert ASKS not in _page(alice, "/accounts/settings/")


def test_saving_the_settings_form_chooses_the_zone(alice):
    client = Client()
    client.force_login(alice)
    form = {"time_zone": "America/Havana", "email_your_turn": "on", "quiet_start": ""}
    response = client.post("/avisos/preferencias/", form | {"quiet_end": ""})
    assert response.status_code == 302
    assert NoticePreferences.objects.get(user=alice).time_zone_chosen is True
    assert ASKS not in client.get("/").content.decode()


def test_a_refused_zone_changes_nothing(api_client_for, alice):
    client = api_client_for(alice)
    assert client.patch(URL, {"time_zone": "Mars/Olympus"}, format="json").status_code == 400
    assert ASKS in _page(alice)


def test_the_settings_say_when_the_reminder_goes(alice):
    page = _page(alice, "/accounts/settings/")
    assert "24 horas antes de perder por ausencia; a mitad de plazo en una mesa de 1 día" in page
