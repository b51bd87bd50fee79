"""The settings' "Zona horaria" offered all 599 names of ``zoneinfo.available_timezones()``,
non-zones among them ("localtime", "Factory", "GMT+0", "W-SU", "Zulu", "PRC"). Now it
offers the tz database's places (``zone.tab``: "America/Havana") and UTC. A browser's alias
("Asia/Calcutta", as Chrome says it) is stored as its place ("Asia/Kolkata"); a zone saved
before is taken back as it is (the API) and shown selected (the page)."""

from __future__ import annotations

import re
import zoneinfo

import pytest

from notices import time_zones
from notices.models import NoticePreferences

pytestmark = pytest.mark.django_db

URL = "/api/v1/notifications/preferences/"
AREAS = "Africa America Antarctica Arctic Asia Atlantic Australia Europe Indian Pacific".split()
NOT_PLACES = ["localtime", "Factory", "GMT+0", "W-SU", "Zulu", "PRC", "US/Eastern", "Etc/GMT+5"]


def _options(client) -> list[str]:
    page = client.get("/accounts/settings/").content.decode()
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S)[0]
    return re.findall(r'<option value="([^"]+)"', select)


def _selected(client) -> str:
    page = client.get("/accounts/settings/").content.decode()
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S)[0]
    return re.search(r'<option value="([^"]+)"[^>]* selected', select)[1]


def test_the_settings_offer_places_and_utc_only(client, alice):
    client.force_login(alice)
    options = _options(client)
    assert "America/Havana" in options and "Europe/Madrid" in options and "UTC" in options
    assert not set(NOT_PLACES) & set(options)
    assert all(name == "UTC" or name.split("/")[0] in AREAS for name in options)
    assert 300 < len(options) < 480, len(options)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("America/Havana", "America/Havana"),
        ("Asia/Calcutta", "Asia/Kolkata"),
        ("Europe/Kiev", "Europe/Kyiv"),
        ("US/Eastern", "America/New_York"),
        ("Etc/UTC", "UTC"),
    ],
)
def test_an_alias_is_stored_as_its_place(api_client_for, alice, given, stored):
    answer = api_client_for(alice).patch(URL, {"time_zone": given}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["time_zone"] == stored
    assert NoticePreferences.objects.get(user=alice).time_zone == stored


@pytest.mark.parametrize("given", ["localtime", "Factory", "Etc/GMT+5", "GMT+0"])
def test_a_name_that_is_no_place_is_refused(api_client_for, alice, given):
    answer = api_client_for(alice).patch(URL, {"time_zone": given}, format="json")
    assert answer.status_code == 400 and answer.json()["fields"]["time_zone"]
    assert NoticePreferences.objects.get(user=alice).time_zone == "UTC"


def test_a_zone_saved_before_the_list_is_kept(api_client_for, client, alice):
    NoticePreferences.objects.create(user=alice, time_zone="Etc/GMT+5", time_zone_chosen=True)
    again = api_client_for(alice).patch(URL, {"time_zone": "Etc/GMT+5"}, format="json")
    assert again.status_code == 200, again.json()
    client.force_login(alice)
    assert _selected(client) == "Etc/GMT+5"
    form = {"time_zone": "Etc/GMT+5", "email_your_turn": "on", "quiet_start": "", "quiet_end": ""}
    assert client.post("/avisos/preferencias/", form).status_code == 302
    assert NoticePreferences.objects.get(user=alice).time_zone == "Etc/GMT+5"


def test_a_saved_alias_shows_as_its_place_and_saves_as_it(client, alice):
    NoticePreferences.objects.create(user=alice, time_zone="Asia/Calcutta", time_zone_chosen=True)
    client.force_login(alice)
    assert _selected(client) == "Asia/Kolkata"
    form = {
        "time_zone": "Asia/Kolkata",
        "email_your_turn": "on",
        "quiet_start": "",
        "quiet_end": "",
    }
    assert client.post("/avisos/preferencias/", form).status_code == 302
    assert NoticePreferences.objects.get(user=alice).time_zone == "Asia/Kolkata"


def test_without_the_systems_zones_the_tzdata_package_gives_the_list(monkeypatch):
    """A slim image may have no /usr/share/zoneinfo: ``zoneinfo`` then reads the tzdata
    package, and so does the list."""
    caches = (time_zones.offered, time_zones._links, time_zones._places)
    for cached in caches:
        cached.cache_clear()
    monkeypatch.setattr(zoneinfo, "TZPATH", ())
    try:
        assert "America/Havana" in time_zones.offered()
        assert "localtime" not in time_zones.offered()
        assert time_zones.offered_name("Asia/Calcutta") == "Asia/Kolkata"
    finally:
        for cached in caches:
            cached.cache_clear()
