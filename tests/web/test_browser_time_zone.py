"""A browser in Madrid (Chromium with the time zone Europe/Madrid) signs in for the first
time: its first page sends that zone through the preferences API, where it stayed "UTC"
until the player saved the settings' "Avisos"; a chosen zone is never replaced."""

from __future__ import annotations

import time

from notices.models import NoticePreferences
from tests.support.browser import BROWSER_MARKS, PHONE, log_in

pytestmark = BROWSER_MARKS


def _zone_of(user, until: str | None = None, seconds: float = 10) -> str:
    deadline = time.monotonic() + seconds
    while True:
        preferences = NoticePreferences.objects.filter(user=user).first()
        zone = preferences.time_zone if preferences else "UTC"
        if zone == until or time.monotonic() > deadline:
            return zone
        time.sleep(0.2)


def _madrid_page(browser, live_server, username: str):
    context = browser.new_context(viewport=PHONE, locale="es-ES", timezone_id="Europe/Madrid")
    page = context.new_page()
    log_in(page, live_server.url, username)
    return context, page


def test_the_first_page_sends_the_browsers_zone(browser, live_server, alice):
    context, page = _madrid_page(browser, live_server, "alice")
    assert _zone_of(alice, until="Europe/Madrid") == "Europe/Madrid"
    assert NoticePreferences.objects.get(user=alice).time_zone_chosen
    page.reload()
    assert page.locator("meta[name=time-zone-unset]").count() == 0
    context.close()


def test_a_chosen_zone_stays(browser, live_server, alice):
    NoticePreferences.objects.create(user=alice, time_zone="UTC", time_zone_chosen=True)
    context, page = _madrid_page(browser, live_server, "alice")
    page.goto(f"{live_server.url}/accounts/settings/")
    assert page.locator("#avisos select[name=time_zone]").input_value() == "UTC"
    time.sleep(1)
    assert _zone_of(alice, seconds=0) == "UTC"
    context.close()
