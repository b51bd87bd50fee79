"""The "Mis mesas" page in pages (tables.listing), in a real browser: alice, with her turn
at one table and 55 finished ones, sees her turn first and 50 rows, then follows "Más
mesas" to the last 7. Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.many_tables import many_tables

pytestmark = BROWSER_MARKS


def test_alice_pages_through_her_tables_her_turn_first(live_server, new_page, alice, bob):
    tables = many_tables(alice, bob, 55)
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    rows = page.locator("li.table-row")
    assert rows.count() == 50
    first = rows.first
    assert "my-turn" in first.get_attribute("class")
    assert f"/mesas/{tables['mine'][0]}/" in first.locator("a").get_attribute("href")
    shot(page, "my-tables-phone", PHONE)
    shot(page, "my-tables-desktop", DESKTOP)
    page.click("text=Más mesas")
    page.wait_for_url(f"{base}/?cursor=*")
    assert page.locator("li.table-row").count() == 7  # 57 tables: 50, then 7
    assert page.locator("text=Más mesas").count() == 0
    shot(page, "my-tables-second-page-phone", PHONE)
