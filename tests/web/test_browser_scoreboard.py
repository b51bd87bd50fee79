"""The scoreboard of a one-hand table (``first_double``: no target, no bar) on a phone:
a seat's points stay on one line. At 390 px "45 puntos" broke into "45" over "puntos"
(its column was the bar's, 5rem, which a one-hand table leaves empty). Screenshots at
390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

import pytest

from tables import services
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in

pytestmark = BROWSER_MARKS


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP, {"width": 360, "height": 740}])
def test_a_one_hand_scoreboard_keeps_number_and_word_together(
    live_server, new_page, alice, viewport
):
    table = services.table_create(
        creator=alice, seats=3, others=["garabato", "nino"], rules="first_double"
    )
    page = signed_in(new_page, live_server.url, "alice")
    page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#scoreboard .side .score")
    assert "Una sola mano decide la partida" in page.inner_text("#scoreboard")
    # Wider than the "45 puntos" seen: three digits, as a count of one hand may reach.
    page.evaluate(
        """() => document.querySelectorAll("#scoreboard .score")
          .forEach((node) => { node.textContent = "145 puntos"; })"""
    )
    for side in page.locator("#scoreboard .side").all():
        score = side.locator(".score")
        lines = score.evaluate(
            "(node) => Math.round(node.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(node).lineHeight))"
        )
        assert lines == 1, score.inner_text()
        box, row = score.bounding_box(), side.bounding_box()
        assert box["x"] + box["width"] <= row["x"] + row["width"] + 0.5
    if viewport is PHONE:
        shot(page, "one-hand-scoreboard-phone")
        shot(page, "one-hand-scoreboard-desktop", DESKTOP)
