"""The replay of a 4-seat match in pairs (R2), in Chromium at 390x844 and 1280x800: each
seat's row gives its pair's points as the table page does ("Pareja A: 35"), not the seat's
alone ("alice: 0 puntos"), and the rows' parts (name, tile count, tiles, points) line up
in columns from one row to the next."""

from __future__ import annotations

import contextlib

import pytest

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.finished import quick_finished_table

pytestmark = BROWSER_MARKS

PARTS = ((".name", "left"), (".count", "left"), (".mini-tiles", "left"), (".score", "right"))


@pytest.fixture
def finished(alice):
    """alice with Nino as her partner against two Ninos, a whole match to 50."""
    return quick_finished_table([alice], ["nino"] * 3, 4, lambda **_: contextlib.nullcontext())


def _edges(page, part: str, side: str) -> list[int]:
    """Where ``part`` of each seat's row starts (``side`` "left") or ends ("right"), px."""
    boxes = page.eval_on_selector_all(
        f"#seats li {part}", "nodes => nodes.map(n => n.getBoundingClientRect().toJSON())"
    )
    return [round(box[side]) for box in boxes]


def test_the_rows_give_the_pairs_points_in_columns(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    page.keyboard.press("ArrowDown")  # hand 2: hand 1's points are on the board
    data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
    a, b = data["hands"][1]["steps"][0]["scores"][:2]
    assert a != b
    for viewport, name in ((DESKTOP, "replay-pairs-desktop"), (PHONE, "replay-pairs-phone")):
        page.set_viewport_size(viewport)
        shot(page, name, viewport)
        for part, side in PARTS:
            edges = _edges(page, part, side)
            assert len(edges) == 4 and len(set(edges)) == 1, (viewport, part, edges)
    texts = page.locator("#seats li .score").all_inner_texts()
    assert texts == [f"Pareja A: {a}", f"Pareja B: {b}", f"Pareja A: {a}", f"Pareja B: {b}"]
