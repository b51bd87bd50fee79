"""The board (the line of played tiles) measured in Chromium at 390x844, 768x1024 and
1280x800, at 2, 3 and 4 seats, with one tile, a line of 15 and the ended hand held on
screen: from 768 px the board takes the main column's width (it sat between the side
seats, half of it), and each end's pill ("◀ 6", "3 ▶") stays on its end tile's row,
beside it, at every width from 360 to 1280 px (a full last row left the right one alone
under the tiles, on a phone too). Screenshots go to artifacts/board-*.png."""

from __future__ import annotations

import pytest

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.pages import play_first_moves, seat_friends

pytestmark = BROWSER_MARKS

TABLET = {"width": 768, "height": 1024}
SIZES = {"phone": PHONE, "tablet": TABLET, "desktop": DESKTOP}

#: Boxes of the board, the main column, the end pills and the end tiles, and the page's
#: scroll width.
MEASURE = """() => {
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width};
  };
  const q = (s) => document.querySelector(s);
  const tiles = [...document.querySelectorAll("#line .placed")];
  return {
    board: box(q("#board")), column: box(q("#seating")),
    leftPill: box(q("#line .end-marker.left")), rightPill: box(q("#line .end-marker.right")),
    first: box(tiles[0]), last: box(tiles[tiles.length - 1]), tiles: tiles.map(box),
    scroll: document.documentElement.scrollWidth,
  };
}"""


def _beside(pill: dict, tile: dict) -> bool:
    """The pill is on the tile's row (within its height, 1 px slack) and next to it."""
    within = tile["top"] - 1 <= pill["top"] and pill["bottom"] <= tile["bottom"] + 1
    if pill["right"] <= tile["left"] + 1:
        gap = tile["left"] - pill["right"]
    else:
        gap = pill["left"] - tile["right"]
    return within and -1 <= gap <= 12


def _pills_off(m: dict) -> bool:
    return not (_beside(m["leftPill"], m["first"]) and _beside(m["rightPill"], m["last"]))


def _check(page, where: str) -> int:
    """Shoot the page at every size and measure it; then widen the page from 360 to
    1280 px, 10 px at a time: at no width may a pill leave its end tile (whether the
    last row is full depends on the width). Returns the number of tiles."""
    for name, viewport in SIZES.items():
        shot(page, f"board-{where}-{name}", viewport)
    failures = []
    for name, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        m = page.evaluate(MEASURE)
        if _pills_off(m):
            failures.append((name, "pill off its end", m["rightPill"], m["last"]))
        board = m["board"]
        if any(
            t["left"] < board["left"] - 1 or t["right"] > board["right"] + 1 for t in m["tiles"]
        ):
            failures.append((name, "a tile outside the board"))
        if m["scroll"] > viewport["width"]:
            failures.append((name, "wider than the screen", m["scroll"]))
        if name != "phone" and board["width"] < 0.8 * m["column"]["width"]:
            failures.append((name, "narrow board", board["width"], m["column"]["width"]))
    for width in range(360, 1281, 10):
        page.set_viewport_size({"width": width, "height": 900})
        if _pills_off(page.evaluate(MEASURE)):
            failures.append((width, "pill off its end"))
    assert failures == [], (where, failures)
    return len(m["tiles"])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_board_is_wide_and_its_end_pills_stay_by_their_tiles(
    live_server, new_page, alice, bob, carol, dave, seats
):
    base = live_server.url
    users = [alice, bob, carol, dave][:seats]
    table = seat_friends(alice, users[1:], target=100)
    page = signed_in(new_page, base, "alice")

    def look(where: str, until) -> int:
        play_first_moves(table, users, until=until)
        page.goto(f"{base}/mesas/{table.pk}/")
        page.wait_for_selector("#line .placed")
        return _check(page, f"{seats}-{where}")

    assert look("short", lambda game: len(game["line"]) >= 1) == 1  # both pills by one tile
    assert look("long", lambda game: len(game["line"]) >= 15) >= 15  # the hand goes on
    placed = look("end", lambda game: False)
    assert page.locator("#last-hand.held").count() == 1
    game = page.request.get(f"{base}/api/v1/tables/{table.pk}/").json()["game"]
    assert placed == len(game["last_hand"]["line"])
