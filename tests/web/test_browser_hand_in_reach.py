"""On a phone the hand is in reach when it is the player's turn: at 390x844 and 360x740,
at 2, 3 and 4 seats, at a hand's start, mid-hand with a long line and after a hand ends
(the next hand's tiles, once "Siguiente mano" let the ended one go), with the "Desde tu
última visita" note on the page, every tile of the hand and the end-choice buttons (when
a tile fits both ends, R12) lie inside the viewport without scrolling: the hand is a
tray fixed to the bottom of the screen, and the page's foot is padded by its height so
nothing under it is out of reach; over the foot of a long line, the tray's hint names the
line's two ends. At 1280x800 the hand stays in the main column.
Screenshots go to artifacts/reach-*.png."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Seat, Table
from tests.conftest import PASSWORD
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    PHONE,
    shown_boxes,
    signed_in,
    view_at_top,
    viewport_screenshot,
)
from tests.support.finished import play_while

pytestmark = BROWSER_MARKS

SMALL_PHONE = {"width": 360, "height": 740}
BOTS = {2: ["nino"], 3: ["nino", "nino"], 4: ["nino", "nino", "nino"]}

#: The end-choice buttons shown when a tile fits both ends.
END_BUTTONS = "#end-choice .end-btn, #end-choice .end-cancel"


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def _out_of_reach(page, viewport: dict) -> list[str]:
    """What of the hand lies outside ``viewport`` once the page is opened at its top."""
    view_at_top(page, viewport)
    tiles = shown_boxes(page, "#hand .tile-btn")
    assert tiles, "no tile of the hand is shown"
    wrong = [f"tile {i} {t}" for i, t in enumerate(tiles) if not t["inside"]]
    return wrong + [f"end button {e}" for e in shown_boxes(page, END_BUTTONS) if not e["inside"]]


def _forget_visits(table_id: int, user) -> None:
    """Ana last looked at the table when it was created: every move since is new to her,
    so the page opens with the longest "Desde tu última visita" note."""
    Seat.objects.filter(table_id=table_id, user=user).update(seen_version=0)


def _table_where_a_bot_leads(ana, seats: int) -> Table:
    """A new table where a bot led the first hand and it is now ana's turn (the note has
    the bot's lead in it)."""
    for _ in range(30):
        table = services.table_create(creator=ana, seats=seats, target=100, others=BOTS[seats])
        view = play_while(ana, table.pk, while_=lambda v: not v["your_turn"])
        if view["game"]["log"]:
            return table
    raise AssertionError("ana led every first hand")


def _open(page, base: str, table_id: int) -> None:
    page.goto(f"{base}/mesas/{table_id}/")
    page.wait_for_selector("#since-line")
    page.wait_for_selector("#table.my-turn #hand .tile-btn")


def _choose_a_double_ended_tile(page, base: str, table_id: int) -> bool:
    """Press a tile that fits both ends (R12), if the hand has one: the end choice opens."""
    view = page.request.get(f"{base}/api/v1/tables/{table_id}/").json()
    tiles = [move["tile"] for move in view["game"]["legal_moves"]]
    both = [tile for tile in tiles if tiles.count(tile) == 2]
    if not both:
        return False
    page.click(f"#hand .tile-btn[data-tile='{both[0]}']")
    page.wait_for_selector("#end-choice:not([hidden]) .end-btn")
    return True


def _check_reach(page, where: str, base: str, table_id: int, *, end_choice=False) -> None:
    """The hand in the viewport at both phone sizes, and the end choice too when a tile
    fits both ends (``end_choice``: one must)."""
    failures = {}
    for name, viewport in (("phone", PHONE), ("small", SMALL_PHONE)):
        wrong = _out_of_reach(page, viewport)
        if wrong:
            failures[name] = wrong
        viewport_screenshot(page, f"reach-{where}-{name}", viewport)
    page.set_viewport_size(PHONE)
    chose = _choose_a_double_ended_tile(page, base, table_id)
    assert chose or not end_choice, "no tile fits both ends"
    if chose:
        for name, viewport in (("phone", PHONE), ("small", SMALL_PHONE)):
            wrong = _out_of_reach(page, viewport)
            if wrong:
                failures[f"{name}, choosing an end"] = wrong
            viewport_screenshot(page, f"reach-{where}-{name}-end-choice", viewport)
        page.keyboard.press("Escape")
    viewport_screenshot(page, f"reach-{where}-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    assert not failures, failures


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_hand_is_in_reach_at_the_start(live_server, new_page, ana, seats):
    table = _table_where_a_bot_leads(ana, seats)
    _forget_visits(table.pk, ana)
    page = signed_in(new_page, live_server.url, "ana")
    _open(page, live_server.url, table.pk)
    _check_reach(page, f"start-{seats}", live_server.url, table.pk)


def _fits_both_ends(view: dict) -> bool:
    """A tile of the hand goes on either end (R12): playing it asks which."""
    tiles = [move["tile"] for move in view["game"]["legal_moves"]]
    return any(tiles.count(tile) == 2 for tile in tiles)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_hand_is_in_reach_mid_hand_with_a_long_line(live_server, new_page, ana, seats):
    """Mid-hand, a line of 8 tiles or more and a tile that fits both ends: the end choice
    is measured too."""
    long_line = 8

    def wanted(view):
        long_enough = len(view["game"]["line"]) >= long_line
        return view["your_turn"] and long_enough and _fits_both_ends(view)

    for _ in range(40):
        table = services.table_create(creator=ana, seats=seats, target=100, others=BOTS[seats])
        view = play_while(
            ana, table.pk, while_=lambda v: v["game"]["hand_number"] == 0 and not wanted(v)
        )
        if view["status"] == "playing" and view["game"]["hand_number"] == 0:
            break
    else:
        raise AssertionError(f"no hand reached a line of {long_line} and a choice of end")
    _forget_visits(table.pk, ana)
    page = signed_in(new_page, live_server.url, "ana")
    _open(page, live_server.url, table.pk)
    assert page.locator("#line .placed").count() >= long_line
    # The tray lies over the foot of the line, where an end may be: its hint names both.
    ends = page.request.get(f"{live_server.url}/api/v1/tables/{table.pk}/").json()["game"]["ends"]
    for viewport in (PHONE, SMALL_PHONE):
        view_at_top(page, viewport)
        assert [box["inside"] for box in shown_boxes(page, "#hand-hint")] == [True]
        said = f"Punta izquierda: {ends[0]} · Punta derecha: {ends[1]}. Toca una ficha"
        assert page.inner_text("#hand-hint").startswith(said)
    _check_reach(page, f"long-line-{seats}", live_server.url, table.pk, end_choice=True)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_next_hands_tiles_are_in_reach_after_a_hand_ends(live_server, new_page, ana, seats):
    table = services.table_create(creator=ana, seats=seats, target=100, others=BOTS[seats])
    view = play_while(
        ana, table.pk, while_=lambda v: not (v["game"]["hand_number"] == 1 and v["your_turn"])
    )
    assert view["status"] == "playing" and view["game"]["hand_number"] == 1, view["status"]
    _forget_visits(table.pk, ana)
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#last-hand.held")
    page.wait_for_selector("#since-line")
    viewport_screenshot(page, f"reach-hand-over-{seats}-phone", PHONE)
    viewport_screenshot(page, f"reach-hand-over-{seats}-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    page.click("#last-hand button.next-hand")
    page.wait_for_selector("#table.my-turn #hand .tile-btn")
    _check_reach(page, f"next-hand-{seats}", live_server.url, table.pk)
