"""An overdue turn in Chromium, with screenshots at 390x844 and 1280x800 (artifacts/):
a read never forfeits it (the absence sweep does, R27), so until then the table page says
"Turno por vencer" in its status line and "por vencer" beside the seat to act, and "Mis
mesas" says "Turno por vencer" instead of a time left."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tables.models import Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.database import human_table

pytestmark = BROWSER_MARKS


def test_an_overdue_turn_reads_por_vencer_until_the_sweep(live_server, new_page, alice, bob):
    table = human_table(alice, bob)
    past = timezone.now() - timedelta(minutes=5)
    # the turn began move_seconds and 5 minutes ago, and no sweep has run since
    Table.objects.filter(pk=table.pk).update(
        deadline=past, turn_started_at=past - timedelta(seconds=table.move_seconds)
    )
    to_play = ("alice", "bob")[table.turn_seat]  # "Mis mesas" gives the time to the mover
    page = signed_in(new_page, live_server.url, to_play)
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    status = page.locator("#status-line")
    status.wait_for()
    assert "Turno por vencer: se acabó el tiempo para jugar." in status.inner_text()
    assert "por vencer" in page.locator(".badge.turn").inner_text()
    # the bell leaves out this table's turn notice: the page's read marks it read
    assert page.locator(".bell .bell-count").count() == 0
    shot(page, "overdue-table-phone", PHONE)
    shot(page, "overdue-table-desktop", DESKTOP)
    page.goto(f"{live_server.url}/")
    assert "Turno por vencer" in page.locator("main").inner_text()
    shot(page, "overdue-home-phone", PHONE)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING  # read, not swept
