"""The "Mis mesas" page in pages (tables.listing), in a real browser: alice, with her turn
at one table and 55 finished ones, sees her turn first and 50 rows, then follows "Más
mesas" to the last 7. Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.many_tables import many_tables
from tests.support.pages import seat_friends

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


def test_my_tables_and_the_table_write_the_time_left_alike(live_server, new_page, alice, bob):
    """A 2-day turn just begun: "Queda 1 día y 23 h" on "Mis mesas" and on the table's
    status line (the last look read "1 día, 23 horas" on one, "47 h 59 min" on the other,
    then "Quedan 1 día, 23 h" on both: the verb now agrees)."""
    table = seat_friends(alice, [bob])
    player = "alice" if table.turn_seat == 0 else "bob"
    page = signed_in(new_page, live_server.url, player)
    row = page.locator("li.table-row").first.inner_text()
    assert "Queda 1 día y 23 h" in row, row
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    expect(page.locator("#status-line")).to_contain_text("Queda 1 día y 23 h para jugar.")
    shot(page, "time-left-phone", PHONE)
    shot(page, "time-left-desktop", DESKTOP)
