"""The move time and the rematch in Chromium (issue 16), with screenshots at 390x844 and
1280x800 (artifacts/): alice picks 1 day on the create form, bob joins, both see "Tiempo
por jugada: 1 día" on the table; after bob deletes his account, alice's finished table
says why there is no rematch instead of offering "Revancha"."""

from __future__ import annotations

import re

from accounts.services import account_delete
from tables import services
from tables.models import Seat, Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in

pytestmark = BROWSER_MARKS


def test_alice_picks_one_day_and_the_table_says_so(live_server, new_page, alice, bob):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/nueva/")
    assert page.locator("input[name=move_days][value='2']").is_checked()
    page.check("input[name=move_days][value='1']")
    shot(page, "movetime-create-phone", PHONE)
    shot(page, "movetime-create-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    table_id = int(re.search(r"/mesas/(\d+)/$", page.url).group(1))
    assert Table.objects.get(pk=table_id).move_seconds == 86400

    token = Seat.objects.get(table_id=table_id, index=1).invite_token
    services.seat_join(token=token, user=bob)
    other = signed_in(new_page, base, "bob")
    other.goto(f"{base}/mesas/{table_id}/")
    other.locator("#hand .tile").first.wait_for()
    assert other.locator("#move-time").inner_text() == "Tiempo por jugada: 1 día"
    shot(other, "movetime-table-phone", PHONE)
    shot(other, "movetime-table-desktop", DESKTOP)


def test_no_rematch_button_once_bob_deleted_his_account(live_server, new_page, alice, bob):
    table = services.table_create(creator=alice, seats=3, others=["friend", "nino"], target=50)
    token = Seat.objects.get(table=table, index=1).invite_token
    services.seat_join(token=token, user=bob)
    services.table_abandon(table_id=table.pk, user=bob)
    account_delete(user=bob)
    page = signed_in(new_page, live_server.url, "alice")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    notice = page.locator("#result-body .no-rematch")
    notice.wait_for()
    assert "borró su cuenta" in notice.inner_text()
    assert page.locator(".ask-rematch").count() == 0
    shot(page, "movetime-no-rematch-phone", PHONE)
    shot(page, "movetime-no-rematch-desktop", DESKTOP)


def test_a_7_day_table_says_7_days(live_server, new_page, alice):
    created = services.table_create(creator=alice, seats=2, others=["friend"], move_days=7)
    page = signed_in(new_page, live_server.url, "alice")
    page.goto(f"{live_server.url}/mesas/{created.pk}/")
    assert page.locator("#move-time").inner_text() == "Tiempo por jugada: 7 días"
