"""A name of one long word, as accounts from before the limit of 30 characters may have
(150 "b"s), wraps on the pages other players read instead of pushing them sideways: the
table's status line ("Le toca a bbbb…"), "Mis mesas" and "Avisos", at 390 px and 1280 px
(the last look: the pages scrolled sideways to 1564 px on a phone). Screenshots go to
artifacts/."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.conftest import _make_user
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.pages import play_first_moves, seat_friends

pytestmark = BROWSER_MARKS

LONG_NAME = "b" * 150


def test_a_long_name_wraps_on_the_table_my_tables_and_notices(
    live_server, new_page, django_user_model, alice
):
    other = _make_user(django_user_model, LONG_NAME)
    table = seat_friends(alice, [other])
    users = [alice, other]
    for _ in range(3):
        if users[table.turn_seat] == other:
            break
        table = play_first_moves(table, users, turns=1)
    assert users[table.turn_seat] == other, "the long name is to move: alice's line names it"

    page = signed_in(new_page, live_server.url, "alice")
    pages = {
        "table": (f"/mesas/{table.pk}/", "#status-line"),
        "my-tables": ("/", "li.table-row"),
        "notices": ("/avisos/", ".notice-list"),
    }
    for name, (path, holder) in pages.items():
        for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(viewport)
            page.goto(f"{live_server.url}{path}")
            expect(page.locator(holder).first).to_contain_text(LONG_NAME)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (name, label, width)
            shot(page, f"long-name-{name}-{label}")
