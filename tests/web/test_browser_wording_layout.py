"""Wording and layout of the table page, in Chromium: a pair's open seat reads "Pareja A
(ana y un asiento libre)"; a match that ended during its first hand says so instead of
"Manos jugadas: 0."; no tile name ("6-4") and no score ("66 puntos") breaks across lines,
wherever the page writes one (the message line, the end choice, the note, the log, the
seats, the final scores). The end choice's buttons in the viewport are measured by
test_browser_hand_in_reach.py."""

from __future__ import annotations

import pytest

from tables import services
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, signed_in
from tests.support.finished import play_while

pytestmark = BROWSER_MARKS

NARROW = {"width": 320, "height": 740}

#: Every shown text node holding a tile name or a score that may break: its element must
#: not wrap (keepTiles puts each tile name in a span.tile-name of its own).
BREAKABLE = r"""() => {
  const wrong = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    const tile = /\b\d-\d\b/.test(text);
    const score = /^\s*\d+ puntos?\s*$/.test(text) || /^Pareja [AB]: \d+$/.test(text.trim());
    if (!tile && !score) continue;
    const el = node.parentElement;
    const shown = el instanceof HTMLElement && el.offsetParent;
    if (!shown || el.closest(".visually-hidden")) continue;
    if (getComputedStyle(el).whiteSpace !== "nowrap") wrong.push(`${el.className}: ${text}`);
  }
  return wrong;
}"""


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def test_a_pairs_open_seat_reads_un_asiento_libre(live_server, new_page, ana):
    table = services.table_create(creator=ana, seats=4, target=100, others=["friend"] * 3)
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    sides = page.locator("#scoreboard .side-name").all_inner_texts()
    assert sides[0] == "Pareja A (ana y un asiento libre)", sides


def test_a_match_left_in_its_first_hand_says_what_happened(live_server, new_page, ana):
    table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
    services.table_abandon(table_id=table.pk, user=ana)
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    result = page.inner_text("#result")
    assert "Manos jugadas: 0" not in result
    assert "Manos jugadas: ninguna; la partida terminó durante la primera mano." in result
    page.set_viewport_size(NARROW)
    assert page.evaluate(BREAKABLE) == []


def test_no_tile_name_or_score_breaks_across_lines(live_server, new_page, ana):
    table = services.table_create(creator=ana, seats=3, target=100, others=["nino", "nino"])
    play_while(ana, table.pk, while_=lambda v: len(v["game"]["line"]) < 4 or not v["your_turn"])
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.set_viewport_size(NARROW)
    page.wait_for_selector("#table.my-turn")
    page.locator("#hand button.tile-btn.playable:not([disabled])").first.click()
    if page.locator("#end-choice:not([hidden])").count():
        assert page.evaluate(BREAKABLE) == []  # "¿En qué punta juegas 5-1?"
        page.locator("#end-choice .end-btn").first.click()
    page.wait_for_function(
        "() => /Jugaste|Saliste/.test(document.getElementById('message').textContent)"
    )
    assert page.locator("#message .tile-name").count() >= 1
    assert page.evaluate(BREAKABLE) == []
