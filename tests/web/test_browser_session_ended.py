"""A session that ended under an open table page (signed out in another tab): a tap on a
tile, a line written in the talk and the page's own polling are answered 401
``not_authenticated``, and the page says "Tu sesión ha terminado: vuelve a entrar." with
a link that signs in and comes back to the table, where it read "No se pudo hacer: Falta
la identificación: inicia sesión o envía tu token." with no link. Screenshots at 390x844
and 1280x800 go to artifacts/."""

from __future__ import annotations

from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, DESKTOP, shot, signed_in
from tests.support.pages import player_to_move, seat_friends

pytestmark = BROWSER_MARKS

NOTICE = "Tu sesión ha terminado: vuelve a entrar."


def _sign_out_in_another_tab(page, base: str) -> None:
    other = page.context.new_page()
    other.goto(f"{base}/")
    other.click("#site-menu summary")
    other.click("form[action='/accounts/logout/'] button")
    other.wait_for_selector("a[href^='/accounts/login/']", state="attached")
    other.close()


def test_a_tap_after_signing_out_says_the_session_ended(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    leader = player_to_move(table, [alice, bob])
    page = signed_in(new_page, base, leader.username)
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#table.my-turn #hand button.tile-btn.playable")
    assert page.locator("#session-ended").is_hidden()
    _sign_out_in_another_tab(page, base)

    page.locator("#hand button.tile-btn.playable").first.click()
    notice = page.locator("#session-ended")
    notice.wait_for(state="visible")
    assert " ".join(notice.inner_text().split()) == NOTICE
    link = notice.locator("a")
    assert link.inner_text() == "vuelve a entrar"
    assert link.get_attribute("href") == f"/accounts/login/?next=/mesas/{table.pk}/"
    assert page.inner_text("#message") == ""  # said once, by the notice
    shot(page, "session-ended-phone")
    shot(page, "session-ended-desktop", DESKTOP)

    page.fill("#talk-text", "hola")
    page.click("#talk-send")
    page.wait_for_function("() => document.getElementById('talk-status').textContent === ''")
    assert notice.is_visible()

    link.click()
    page.fill("#id_username", leader.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#table.my-turn #hand button.tile-btn.playable")
    assert page.locator("#session-ended").is_hidden()


def test_the_poll_shows_it_without_a_tap(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    page = signed_in(new_page, base, "bob")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#hand button.tile-btn")
    _sign_out_in_another_tab(page, base)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.locator("#session-ended").wait_for(state="visible")
