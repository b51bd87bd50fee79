"""A table cancelled before its match began ("Cancelar la mesa" while the friends' seats
were free) shows what it is, "Mesa cancelada", and the people who sat: no talk box (there
is nobody left to talk to and nothing to talk about), no "Asiento libre" seat and no
scoreboard of free seats ("Pareja B (2 asientos libres)")."""

from __future__ import annotations

import pytest

from tables import services
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, signed_in
from tests.support.pages import signed_in_client

pytestmark = BROWSER_MARKS


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def _cancelled(ana):
    table = services.table_create(
        creator=ana, seats=4, target=50, others=["friend", "friend", "friend"]
    )
    services.table_abandon(table_id=table.pk, user=ana)
    return table


def test_a_cancelled_tables_page_has_no_talk(ana):
    table = _cancelled(ana)
    html = signed_in_client(ana).get(f"/mesas/{table.pk}/").content.decode()
    assert 'id="talk"' not in html and "Charla de la mesa" not in html


def test_a_cancelled_table_shows_no_free_seat(live_server, new_page, ana):
    table = _cancelled(ana)
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#talk").count() == 0
    seats = page.locator("#players .seat").all_inner_texts()
    assert len(seats) == 1 and "ana" in seats[0], seats
    assert "Asiento libre" not in page.inner_text("main")
    assert "asiento libre" not in page.inner_text("main")
    assert page.locator("#scoreboard").is_hidden()
