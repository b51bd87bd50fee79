"""A table still waiting for players, in Chromium: its creator renews a seat's share link
from the page ("Cambiar el enlace": confirmed, then the renew API) and the page shows the
new link while the old one's page says it no longer works (R30); a guest sees "Dejar el
asiento" and leaving takes them home, which says so ("Dejaste tu asiento en la mesa
N."), while the table waits; a 4-seat table's scoreboard
counts its open seats instead of naming one "Asiento libre" for two.
Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

from tables import services
from tables.models import Seat, Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in

pytestmark = BROWSER_MARKS


def _open(page, base: str, table: Table) -> None:
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#players li.seat")


def test_the_creator_renews_a_link_and_the_old_one_stops_working(live_server, new_page, alice, bob):
    base = live_server.url
    table = services.table_create(creator=alice, seats=4, others=["friend", "friend", "nino"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    page = signed_in(new_page, base, "alice")
    _open(page, base, table)
    old = page.input_value("#invite-2")
    assert old.endswith(f"/invitacion/{Seat.objects.get(table=table, index=2).invite_token}/")
    assert page.inner_text("#abandon") == "Cancelar la mesa"
    shot(page, "waiting-renew-before-phone")

    page.click("#invite-list .renew-link")  # the dialog is accepted (new_page)
    page.wait_for_function("old => document.getElementById('invite-2').value !== old", arg=old)

    new = page.input_value("#invite-2")
    assert new.endswith(f"/invitacion/{Seat.objects.get(table=table, index=2).invite_token}/")
    assert "el anterior ya no funciona" in page.inner_text("#message")
    shot(page, "waiting-renew-after-phone")
    shot(page, "waiting-renew-after-desktop", DESKTOP)
    stranger = new_page()
    stranger.goto(old)
    assert "ya no es válida" in stranger.inner_text("main")
    shot(stranger, "waiting-renew-old-link-phone")
    stranger.goto(new)
    assert "ya no es válida" not in stranger.inner_text("main")


def test_a_guest_leaves_the_seat_and_the_scoreboard_counts_open_seats(
    live_server, new_page, alice, bob
):
    base = live_server.url
    table = services.table_create(creator=alice, seats=4, others=["friend", "friend", "friend"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    page = signed_in(new_page, base, "bob")
    _open(page, base, table)
    assert page.inner_text("#abandon") == "Dejar el asiento"
    sides = page.locator("#scoreboard .side-name").all_inner_texts()
    assert sides == ["Pareja A (alice y un asiento libre)", "Pareja B (bob y un asiento libre)"]
    assert page.locator("#invite-list .renew-link").count() == 0  # links are the creator's
    shot(page, "waiting-guest-phone", PHONE)
    shot(page, "waiting-guest-desktop", DESKTOP)

    page.click("#abandon")
    page.wait_for_url(f"{base}/")
    assert page.inner_text("main .messages") == f"Dejaste tu asiento en la mesa {table.pk}."
    shot(page, "waiting-guest-left-phone", PHONE)
    shot(page, "waiting-guest-left-desktop", DESKTOP)

    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert not Seat.objects.filter(table=table, user=bob).exists()
    creator = signed_in(new_page, base, "alice")
    _open(creator, base, table)
    sides = creator.locator("#scoreboard .side-name").all_inner_texts()
    assert sides == ["Pareja A (alice y un asiento libre)", "Pareja B (2 asientos libres)"]
    assert creator.locator("#invite-list .invite").count() == 3
    shot(creator, "waiting-after-leave-phone", PHONE)
    shot(creator, "waiting-after-leave-desktop", DESKTOP)
