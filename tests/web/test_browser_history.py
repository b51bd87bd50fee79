""" "Partidas terminadas" in pages (``tables.history``), in a real browser: alice, with 45
finished matches, sees the newest 20, follows "Más antiguas" to the last 5 and "Más
recientes" back, and a filter chosen in the form stays on through the pages.
Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

from playwright.sync_api import expect

from tables.models import Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.many_tables import tables

pytestmark = BROWSER_MARKS


def test_alice_pages_through_her_finished_matches(live_server, new_page, alice, bob):
    made = []
    for n in range(45):
        against = [alice, bob] if n % 5 == 0 else [alice, ("nino", "garabato")[n % 2]]
        made += tables(1, status="finished", players=against)
    won = made[::3]
    Table.objects.filter(pk__in=made).exclude(pk__in=won).update(winners=[1])
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/partidas/")
    rows = page.locator("li.table-row")
    assert rows.count() == 20
    assert page.locator("a[rel=prev]").count() == 0
    shot(page, "history-phone", PHONE)
    shot(page, "history-desktop", DESKTOP)
    page.click("text=Más antiguas")
    page.wait_for_url(f"{base}/partidas/?cursor=*")
    assert rows.count() == 20 and page.locator("a[rel=prev]").count() == 1
    shot(page, "history-second-page-phone", PHONE)
    page.click("text=Más antiguas")  # to ?cursor= again: wait for the third page's rows
    expect(rows).to_have_count(5)
    assert page.locator("a[rel=next]").count() == 0
    page.click("text=Más recientes")
    page.wait_for_url(f"{base}/partidas/?newer=*")
    assert rows.count() == 20
    # a filter chosen in the form, then the pages: it stays on
    page.goto(f"{base}/partidas/")
    page.select_option("#result", "lost")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(f"{base}/partidas/?result=lost*")
    assert rows.count() == 20
    page.click("text=Más antiguas")
    page.wait_for_url(f"{base}/partidas/?result=lost*cursor=*")
    assert rows.count() == 10  # 30 lost: 20, then 10
    assert page.locator("#result").input_value() == "lost"
    assert all("Perdiste" in text for text in rows.all_inner_texts())
    shot(page, "history-filtered-phone", PHONE)
    page.fill("#opponent", "bob")
    page.click("form.filters button[type=submit]")
    page.wait_for_url(f"{base}/partidas/?result=lost&opponent=bob*")
    assert rows.count() == len([pk for pk in made[::5] if pk not in won])
    shot(page, "history-filtered-desktop", DESKTOP)
