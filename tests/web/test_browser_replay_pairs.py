"""The replay of a 4-seat match in pairs (R2), in Chromium at 390x844, 1280x800 and 360
px wide: each seat's row gives its pair's points as the table page does ("Pareja A: 35"),
not the seat's alone ("alice: 0 puntos"), and the rows' parts (name, tile count, tiles,
the pair's name, its points) line up in columns from one row to the next, on a phone too,
without overflowing. To alice, who played the match, the page names her seat as the table
page does ("alice (tú)", "Jugaste 6-4", "Saliste con 6-6") and her partner "Nino II (tu
pareja, bot)"; the other seats, and every seat for a signed-out visitor of the public
link, read by name ("Nino jugó 6-4")."""

from __future__ import annotations

import contextlib

import pytest

from tables import services
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.finished import quick_finished_table

pytestmark = BROWSER_MARKS

PARTS = (".name", ".count", ".mini-tiles", ".side", ".points")
NARROW = {"width": 360, "height": 800}
PLAYERS = ["alice", "Nino", "Nino II", "Nino III"]


@pytest.fixture
def finished(alice):
    """alice with Nino as her partner against two Ninos, a whole match to 50."""
    return quick_finished_table([alice], ["nino"] * 3, 4, lambda **_: contextlib.nullcontext())


def _open(page, url: str) -> dict:
    """Open the replay at ``url``; its ``replay-data``."""
    page.goto(url)
    page.wait_for_selector("#seats li")
    return page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")


def _lefts(page, part: str) -> list[int]:
    """Where ``part`` of each seat's row starts, px."""
    boxes = page.eval_on_selector_all(
        f"#seats li {part}", "nodes => nodes.map(n => n.getBoundingClientRect().left)"
    )
    return [round(left) for left in boxes]


def _overflow(page) -> list[float]:
    """How far the page and the seats' rows stick out to the right, px (0: none)."""
    return page.evaluate(
        """() => {
          const list = document.getElementById("seats");
          const right = list.getBoundingClientRect().right;
          const parts = [...list.querySelectorAll("li *")];
          const rightmost = Math.max(...parts.map(n => n.getBoundingClientRect().right));
          return [document.documentElement.scrollWidth - window.innerWidth,
                  list.scrollWidth - list.clientWidth, rightmost - right];
        }"""
    )


def _step_to_play(page, data: dict, seat: int) -> str:
    """Step to ``seat``'s first play of the first hand; what the page should say for it in
    the third person ("salió con 6-6" or "jugó 6-4"), with the tile."""
    steps = data["hands"][0]["steps"]
    index = next(
        i
        for i, step in enumerate(steps)
        if step["action"] and step["action"]["seat"] == seat and step["action"]["kind"] == "play"
    )
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay", "data-place") == f"0:{index}"
    verb = "salió con" if len(steps[index]["line"]) == 1 else "jugó"
    return f"{verb} {steps[index]['action']['tile']}"


def test_the_rows_give_the_pairs_points_in_columns(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.set_viewport_size(DESKTOP)
    data = _open(page, f"{base}/mesas/{finished.pk}/partida/")
    page.keyboard.press("ArrowDown")  # hand 2: hand 1's points are on the board
    a, b = data["hands"][1]["steps"][0]["scores"][:2]
    assert a != b
    sizes = ((DESKTOP, "desktop"), (PHONE, "phone"), (NARROW, "narrow"))
    for viewport, name in sizes:
        page.set_viewport_size(viewport)
        shot(page, f"replay-pairs-{name}", viewport)
        for part in PARTS:  # "Pareja B: 0" starts where "Pareja A: 30" does, and its 0 too
            lefts = _lefts(page, part)
            assert len(lefts) == 4 and len(set(lefts)) == 1, (viewport, part, lefts)
        assert max(_overflow(page)) <= 0, (viewport, _overflow(page))
    sides = page.locator("#seats li .side").all_inner_texts()
    assert sides == ["Pareja A:", "Pareja B:", "Pareja A:", "Pareja B:"]
    points = page.locator("#seats li .points").all_inner_texts()
    assert points == [str(a), str(b), str(a), str(b)]


def test_alice_reads_her_seat_in_the_second_person(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    data = _open(page, f"{base}/mesas/{finished.pk}/partida/")
    assert data["players"] == PLAYERS
    names = page.locator("#seats li .name").all_inner_texts()
    assert names == ["alice (tú)", "Nino (bot)", "Nino II (tu pareja, bot)", "Nino III (bot)"]
    hers = _step_to_play(page, data, 0)
    yours = hers.replace("salió con", "Saliste con").replace("jugó", "Jugaste")
    assert page.inner_text("#action") == yours
    shot(page, "replay-pairs-yours-phone")
    shot(page, "replay-pairs-yours-desktop", DESKTOP)
    _open(page, f"{base}/mesas/{finished.pk}/partida/")  # back to the deal
    partner = _step_to_play(page, data, 2)
    assert page.inner_text("#action") == f"Nino II {partner}"

    link, _ = services.replay_publish(table_id=finished.pk, user=alice)
    visitor = new_page()  # signed out
    _open(visitor, f"{base}/partida/{link.token}/")
    tagged = ["alice", "Nino (bot)", "Nino II (bot)", "Nino III (bot)"]  # as the table page
    assert visitor.locator("#seats li .name").all_inner_texts() == tagged
    _step_to_play(visitor, data, 0)
    assert visitor.inner_text("#action") == f"alice {hers}"
    shot(visitor, "replay-pairs-public-phone")
    _open(page, f"{base}/partida/{link.token}/")  # alice opens her own public link
    assert page.locator("#seats li .name").all_inner_texts()[0] == "alice (tú)"
