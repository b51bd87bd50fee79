"""A browser in Madrid (Chromium with the time zone Europe/Madrid) signs in for the first
time: its first page sends that zone through the preferences API, where it stayed "UTC"
until the player saved the settings' "Avisos"; a chosen zone is never replaced. A player
in Havana reads the talk and the inbox in Havana's time, both with the month's name
("3 dic 2025, 13:04", "3 Dec 2025, 13:04"): the inbox said UTC's "3 Dic 2025, 18:09",
and the talk "3/12/25, 13:04", 12 March to an English reader."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from moderation.models import TalkMessage
from moderation.services import talk_post
from notices.models import NoticePreferences, Notification
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot
from tests.support.pages import seat_friends

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


@pytest.mark.parametrize(
    ("language", "talk", "inbox"),
    [
        ("es", ["15 ene, 13:04", "3 dic 2025, 13:04"], "3 dic 2025, 13:09"),
        ("en", ["15 Jan, 13:04", "3 Dec 2025, 13:04"], "3 Dec 2025, 13:09"),
    ],
)
def test_havana_reads_the_talk_and_the_inbox_in_its_time(
    browser, live_server, alice, bob, language, talk, inbox
):
    """Havana is UTC-5 in winter: 18:04 UTC is 13:04 there. The talk gives the year only
    when it is not this one."""
    NoticePreferences.objects.create(user=alice, time_zone="America/Havana", time_zone_chosen=True)
    alice.language = language  # the sign-in gives the pages her language
    alice.save(update_fields=["language"])
    table = seat_friends(alice, [bob])
    this_year = datetime.now(ZoneInfo("America/Havana")).year  # the browser's year
    for when in (
        datetime(this_year, 1, 15, 18, 4, tzinfo=UTC),
        datetime(2025, 12, 3, 18, 4, tzinfo=UTC),
    ):
        message = talk_post(table_id=table.pk, user=bob, text=f"hola {when.year}")
        TalkMessage.objects.filter(pk=message.pk).update(created_at=when)
    Notification.objects.filter(recipient=alice).update(
        created_at=datetime(2025, 12, 3, 18, 9, tzinfo=UTC)
    )
    assert Notification.objects.filter(recipient=alice).exists()
    context = browser.new_context(viewport=PHONE, locale="es-ES", timezone_id="America/Havana")
    page = context.new_page()
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-message")
    assert page.locator("#talk-list .talk-head time").all_inner_texts() == talk
    shot(page, f"talk-dates-{language}-phone")
    page.goto(f"{live_server.url}/avisos/")
    assert set(page.locator(".notice-time").all_inner_texts()) == {inbox}
    shot(page, f"inbox-dates-{language}-phone")
    shot(page, f"inbox-dates-{language}-desktop", DESKTOP)
    context.close()


def test_the_talk_reads_the_saved_zone_not_the_browsers(browser, live_server, alice, bob):
    """Alice saved Havana but reads in a browser set to Madrid: the talk writes her saved
    zone's 13:04, as the inbox does, not Madrid's 19:04. A zone nobody chose keeps the
    browser's (the first test: the page sends it, so it is the same)."""
    NoticePreferences.objects.create(user=alice, time_zone="America/Havana", time_zone_chosen=True)
    table = seat_friends(alice, [bob])
    message = talk_post(table_id=table.pk, user=bob, text="hola")
    TalkMessage.objects.filter(pk=message.pk).update(
        created_at=datetime(2025, 12, 3, 18, 4, tzinfo=UTC)
    )
    Notification.objects.filter(recipient=alice).update(
        created_at=datetime(2025, 12, 3, 18, 4, tzinfo=UTC)
    )
    context, page = _madrid_page(browser, live_server, "alice")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-message")
    assert page.locator("#talk-list .talk-head time").all_inner_texts() == ["3 dic 2025, 13:04"]
    page.goto(f"{live_server.url}/avisos/")
    assert set(page.locator(".notice-time").all_inner_texts()) == {"3 dic 2025, 13:04"}
    context.close()


def test_the_talk_and_the_inbox_name_the_zone_of_their_times(browser, live_server, alice, bob):
    """Nobody chose a zone (the browser's is not sent: its request fails here): the talk
    writes in the browser's zone, Madrid's, and its script names it; the inbox writes in
    the default, UTC, and names that. With Havana saved, both name Havana."""
    table = seat_friends(alice, [bob])
    talk_post(table_id=table.pk, user=bob, text="hola")
    Notification.objects.create(
        recipient=alice, table=table, kind="friend_joined", key="x", payload={"joined": "bob"}
    )
    context = browser.new_context(viewport=PHONE, locale="es-ES", timezone_id="Europe/Madrid")
    page = context.new_page()
    page.route("**/api/v1/notifications/preferences/", lambda route: route.abort())
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-message")
    assert page.locator("#talk-zone").inner_text() == "Fechas en hora de Europe/Madrid."
    page.goto(f"{live_server.url}/avisos/")
    assert page.locator(".time-zone-note").inner_text() == "Fechas en hora de UTC."
    assert _zone_of(alice, seconds=0) == "UTC"

    NoticePreferences.objects.update_or_create(
        user=alice, defaults={"time_zone": "America/Havana", "time_zone_chosen": True}
    )
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-message")
    assert page.locator("#talk-zone").inner_text() == "Fechas en hora de America/Havana."
    shot(page, "talk-zone-named-phone")
    shot(page, "talk-zone-named-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/avisos/")
    assert page.locator(".time-zone-note").inner_text() == "Fechas en hora de America/Havana."
    shot(page, "inbox-zone-named-phone")
    shot(page, "inbox-zone-named-desktop", DESKTOP)
    context.close()
