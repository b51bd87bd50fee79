""" "Desde tu última visita" in Chromium: it tells the player's own automatic draws and
passes (R16: the server made them while the player was away, "robaste 2 fichas",
"pasaste"), and on a page left open it goes once the page has shown newer moves (its
sentence was about the visit the page was opened on)."""

from __future__ import annotations

import re
import time

import pytest

from tables import services
from tables.models import Move, Seat
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, refresh, signed_in
from tests.support.finished import play_while

pytestmark = BROWSER_MARKS


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def _automatic_moves_of(table_id: int, seat: int):
    return Move.objects.filter(table_id=table_id, seat=seat, automatic=True)


def test_the_note_tells_my_own_automatic_draws_and_passes(live_server, new_page, ana):
    for _ in range(30):
        table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
        mine = Seat.objects.get(table=table, user=ana).index
        view = play_while(
            ana,
            table.pk,
            while_=lambda v, pk=table.pk, seat=mine: (
                not (_automatic_moves_of(pk, seat).exists() and v["your_turn"])
            ),
        )
        if view["status"] == "playing" and _automatic_moves_of(table.pk, mine).exists():
            break
    else:
        raise AssertionError("ana never drew or passed automatically")
    first = _automatic_moves_of(table.pk, mine).order_by("version").first()
    # Ana last looked just before the move that made her draw or pass.
    Seat.objects.filter(table=table, user=ana).update(seen_version=first.version - 1)
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    note = page.inner_text("#since-line")
    assert re.search(r"\b(robaste \d+ fichas?|pasaste)\b", note), note
    marked = page.locator("#log li.since").all_inner_texts()
    assert any(re.match(r"(Robaste|Pasaste)", line) for line in marked), marked


def test_the_note_goes_once_an_open_page_shows_newer_moves(live_server, new_page, ana):
    for _ in range(30):
        table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
        view = play_while(ana, table.pk, while_=lambda v: not v["your_turn"])
        if view["game"]["log"]:
            break
    else:
        raise AssertionError("ana led every first hand")
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    assert "Nino" in page.inner_text("#since-line")
    before = int(page.get_attribute("#table", "data-version"))
    # Ana plays on her phone; Nino answers: this page, still open, shows the new moves.
    move = view["game"]["legal_moves"][0]
    services.move_play(
        table_id=table.pk, user=ana, version=view["version"], tile=move["tile"], end=move["end"]
    )
    deadline = time.monotonic() + 20
    while int(page.get_attribute("#table", "data-version")) <= before:
        assert time.monotonic() < deadline, "the page never showed the new moves"
        refresh(page)
        page.wait_for_timeout(300)
    assert page.locator("#since-line").count() == 0
