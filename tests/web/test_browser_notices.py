"""Notices in Chromium (issue 15): the web app manifest and the service worker load, the
settings page shows "Recibir avisos en este dispositivo" when the server has VAPID keys,
the bell in the header shows the unread count after a friend moves, and opening the table
clears it. Screenshots of the inbox, the bell and the settings at 1280x800 and 390x844
go to artifacts/."""

from __future__ import annotations

import random

from dominoes import view_for
from notices.management.commands.vapid_keys import new_pair
from tables import services
from tests.support.browser import ARTIFACTS, BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS


def _worker_active(page) -> bool:
    return page.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          return Boolean(registration.active) && registration.scope;
        }"""
    )


def test_the_manifest_and_the_service_worker_load(live_server, new_page, alice):
    page = signed_in(new_page, live_server.url, "alice")
    manifest = page.evaluate(
        """async () => {
          const link = document.querySelector("link[rel=manifest]");
          const response = await fetch(link.href);
          return [response.status, response.headers.get("content-type"), await response.json()];
        }"""
    )
    status, kind, body = manifest
    assert status == 200 and kind == "application/manifest+json"
    assert body["display"] == "standalone"
    for icon in body["icons"]:
        assert page.evaluate("async (src) => (await fetch(src)).status", icon["src"]) == 200
    assert _worker_active(page) == f"{live_server.url}/"


def test_the_settings_switch_shows_with_vapid_keys(live_server, new_page, alice, settings):
    page = signed_in(new_page, live_server.url, "alice")
    page.goto(f"{live_server.url}/accounts/settings/")
    assert page.locator("[data-push-switch]").count() == 0  # no keys: no switch
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_pair()
    page.goto(f"{live_server.url}/accounts/settings/")
    switch = page.get_by_label("Recibir avisos en este dispositivo")
    switch.wait_for()
    page.wait_for_function("() => !document.querySelector('[data-push-switch]').disabled")
    assert not switch.is_checked()
    assert page.locator("[data-push-status]").inner_text() == "Este dispositivo no recibe avisos."
    page.locator("#avisos").scroll_into_view_if_needed()
    shot(page, "notices-settings-desktop", DESKTOP)
    shot(page, "notices-settings-phone", PHONE)


def _friend_moves(table, friend) -> None:
    """The seat to act (the friend's) plays a legal move through the services."""
    table.refresh_from_db()
    view = view_for(services.match_of(table), table.turn_seat)
    play = random.Random(4).choice(view.legal_moves)
    services.move_play(
        table_id=table.pk, user=friend, tile=str(play.tile), end=play.end, version=table.version
    )


def test_the_bell_counts_a_friends_move_and_the_table_clears_it(live_server, new_page, alice, bob):
    table = seat_friends(alice, [bob])
    mover, waiting = (alice, "bob") if table.turn_seat == 0 else (bob, "alice")
    page = signed_in(new_page, live_server.url, waiting)
    page.goto(f"{live_server.url}/avisos/")
    before = page.locator(".bell-count").count()
    _friend_moves(table, mover)  # the notice task runs inline, as the write commits
    page.goto(f"{live_server.url}/")
    count = page.locator("header .bell-count")
    assert int(count.inner_text()) >= 1 and before in (0, 1)
    assert "sin leer" in page.locator("header .bell").inner_text()
    shot(page, "notices-bell-phone", PHONE)
    page.goto(f"{live_server.url}/avisos/")
    first = page.locator(".notice-list .notice").first
    assert "Te toca en la mesa" in first.inner_text()
    shot(page, "notices-inbox-desktop", DESKTOP)
    shot(page, "notices-inbox-phone", PHONE)
    first.locator("a").click()
    page.wait_for_url(f"{live_server.url}/mesas/{table.pk}/")
    assert page.locator("header .bell-count").count() == 0
    page.goto(f"{live_server.url}/avisos/")
    assert page.locator(".notice-list .notice.unread").count() == 0


def _in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport, where the player looks."""
    return page.evaluate(
        """(selector) => {
          const box = document.querySelector(selector).getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }""",
        selector,
    )


def test_saving_the_notices_on_a_phone_says_so_where_the_page_lands(live_server, new_page, alice):
    """"Guardar avisos" jumps back to #avisos, about 1,400 px down on a 390x844 phone: the
    confirmation is said there, in view, and not at the top of the page."""
    page = signed_in(new_page, live_server.url, "alice")
    page.goto(f"{live_server.url}/accounts/settings/")
    page.get_by_role("button", name="Guardar avisos").click()
    page.wait_for_url(f"{live_server.url}/accounts/settings/#avisos")
    said = page.locator("#avisos .messages li")
    assert said.inner_text() == "Avisos guardados."
    assert page.evaluate("window.scrollY") > 500  # the jump happened: the page's top is far
    assert _in_view(page, "#avisos .messages li")
    assert page.locator("main > .messages").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "settings-notices-saved-phone.png"))  # what is in view
