"""The seating picture and the phone layout (issue 16) measured in Chromium: the seats
around the table (the reader at the bottom, the partner on top, the others in turn
order: play passes to the right, R3), the seat to play marked, the header at most 64 px
tall on a phone, a hand of 7 tiles in one row at 390 px and the line's tiles at least
36 px on their short side.
Screenshots of 2, 3 and 4-seat tables at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

import pytest

from tables import selectors, services
from tables.models import Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.pages import hidden_from, play_first_moves, seat_friends, tile_tokens

pytestmark = BROWSER_MARKS


def _open(page, base: str, table: Table) -> None:
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#players li.seat")


def _box(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _positions(page) -> dict[int, str]:
    return {
        int(seat): position
        for seat, position in page.locator("#players li.seat").evaluate_all(
            "els => els.map(e => [e.dataset.seat, e.dataset.position])"
        )
    }


def _assert_turn_marked(page, table: Table) -> None:
    marked = page.locator("#players li.seat.turn")
    assert marked.count() == 1
    assert marked.get_attribute("data-seat") == str(table.turn_seat)
    assert marked.get_attribute("aria-current") == "true"
    assert "juega ahora" in marked.inner_text()
    assert page.locator("#players li.seat[aria-current]").count() == 1


def _assert_hand_in_one_row(page, tiles: int) -> None:
    tops = page.locator("#hand button.tile-btn").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(tops) == tiles
    assert len(set(tops)) == 1, f"the hand wraps at 390 px: tops {tops}"


def test_header_is_at_most_64px_on_a_phone_and_its_menu_opens(live_server, new_page, alice):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    assert _box(page, "header.site-header")["height"] <= 64
    assert page.locator("header nav a[href='/reglas/']").is_hidden()
    page.click("header .menu-button")
    assert page.locator("header nav a[href='/reglas/']").is_visible()
    assert page.locator("header #lang-select").is_visible()
    shot(page, "seating-menu-open-phone")
    page.keyboard.press("Escape")
    assert page.locator("header nav a[href='/reglas/']").is_hidden()
    # A desktop shows the menu in the header's row, no button.
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(150)
    assert page.locator("header nav a[href='/reglas/']").is_visible()
    assert page.locator("header .menu-button").is_hidden()
    assert _box(page, "header.site-header")["height"] <= 64
    # Chromium shows it from the style sheet alone (::details-content), closed or not.
    page.evaluate("document.getElementById('site-menu').open = false")
    assert page.locator("header nav a[href='/reglas/']").is_visible()


def test_bob_sees_four_seats_around_the_table_his_partner_on_top(
    live_server, new_page, alice, bob, carol, dave
):
    """bob holds seat 1: he sits at the bottom, carol (seat 2, who plays after him: play
    passes to the right, R3) on his right, dave (seat 3, his partner, R2) on top and
    alice (seat 0) on his left."""
    base = live_server.url
    users = [alice, bob, carol, dave]
    table = seat_friends(alice, [bob, carol, dave], target=100)
    page = signed_in(new_page, base, "bob")
    _open(page, base, table)
    assert _box(page, "header.site-header")["height"] <= 64
    _assert_hand_in_one_row(page, 7)

    table = play_first_moves(table, users, turns=8)
    page.reload()
    page.wait_for_selector("#line .placed")
    assert _positions(page) == {1: "bottom", 2: "right", 3: "top", 0: "left"}
    assert "(tu pareja)" in page.inner_text("#players li[data-position=top]")
    assert "(tú)" in page.inner_text("#players li[data-position=bottom]")
    _assert_turn_marked(page, table)
    # Pairs: every seat shows its pair's score; the order numbers go round the table.
    assert "Pareja B: 0" in page.inner_text("#players li[data-seat='1']")
    assert "Pareja A: 0" in page.inner_text("#players li[data-seat='2']")
    orders = page.locator("#players li.seat .order").all_inner_texts()
    assert orders == ["1", "2", "3", "4"]

    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        bottom = _centre(_box(page, "#players li[data-position=bottom]"))
        top = _centre(_box(page, "#players li[data-position=top]"))
        left = _centre(_box(page, "#players li[data-position=left]"))
        right = _centre(_box(page, "#players li[data-position=right]"))
        assert top[1] < left[1] < bottom[1] and top[1] < right[1] < bottom[1], viewport
        assert left[0] < top[0] < right[0] and left[0] < bottom[0] < right[0], viewport
        # The seats and the scores come before the hand.
        assert _box(page, "#seating")["y"] < _box(page, "#my-hand")["y"]
        assert _box(page, "#players li[data-position=bottom]")["y"] < _box(page, "#hand")["y"]

    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    sides = page.locator("#line .placed svg").evaluate_all(
        """els => els.map(e => {
          const r = e.getBoundingClientRect();
          return Math.min(r.width, r.height);
        })"""
    )
    assert sides and min(sides) >= 36, sides
    held = len(page.locator("#hand button.tile-btn").all())
    _assert_hand_in_one_row(page, held)
    # The picture shows tile backs, never a tile (R31): no tile name in it, and none of
    # the others' tiles anywhere on the page.
    assert tile_tokens(page.inner_html("#players")) == set()
    counts = page.request.get(f"{base}/api/v1/tables/{table.pk}/").json()["game"]["tile_counts"]
    for seat, count in enumerate(counts):
        assert page.locator(f"#players li[data-seat='{seat}'] .back").count() == min(count, 10)
    assert not tile_tokens(page.content()) & hidden_from(table, 1)
    shot(page, "seating-4-phone")
    shot(page, "seating-4-desktop", DESKTOP)


def test_alice_sees_three_seats_nino_on_her_right_and_nino_ii_on_her_left(
    live_server, new_page, alice
):
    base = live_server.url
    table = services.table_create(creator=alice, seats=3, target=50, others=["nino", "nino"])
    page = signed_in(new_page, base, "alice")
    _open(page, base, table)
    table.refresh_from_db()
    assert _positions(page) == {0: "bottom", 1: "right", 2: "left"}
    names = page.locator("#players li.seat .name").all_inner_texts()
    assert [name.strip("▶ ") for name in names] == ["alice (tú)", "Nino (bot)", "Nino II (bot)"]
    if table.status == Table.Status.PLAYING:
        _assert_turn_marked(page, table)
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        bottom = _centre(_box(page, "#players li[data-position=bottom]"))
        left = _centre(_box(page, "#players li[data-position=left]"))
        right = _centre(_box(page, "#players li[data-position=right]"))
        assert left[0] < bottom[0] < right[0] and left[1] < bottom[1] and right[1] < bottom[1]
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    assert "punto" in page.inner_text("#players li[data-seat='1'] .seat-score")
    shot(page, "seating-3-phone")
    shot(page, "seating-3-desktop", DESKTOP)


#: The words of the seats' names that the page splits across two lines.
BROKEN_WORDS = """els => els.flatMap(element => {
    const broken = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
            if (lines.size > 1) broken.push(word[0]);
        }
    }
    return broken;
})"""


@pytest.mark.parametrize("rules", ["classic", "cuban"])
def test_three_abuelas_quelonias_are_told_apart_by_their_whole_names(
    live_server, new_page, alice, rules
):
    """Bots of one kind are numbered ("Abuela Quelonia II"): at a four-seat table the
    seats' names are shown whole (wrapped, not cut to "Abuela Quel…") at both sizes, and
    wrapped between words, never inside one ("Abuel|a Quelo|nia" on a phone beside
    cuban's longer "fuera de juego" line)."""
    base = live_server.url
    table = services.table_create(
        creator=alice, rules=rules, seats=4, others=["quelonia", "quelonia", "quelonia"]
    )
    page = signed_in(new_page, base, "alice")
    _open(page, base, table)
    names = page.locator("#players li.seat .name").all_inner_texts()
    assert [name.strip("▶ ") for name in names] == [
        "alice (tú)",
        "Abuela Quelonia (bot)",
        "Abuela Quelonia II (tu pareja, bot)",
        "Abuela Quelonia III (bot)",
    ]
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        cut = page.locator("#players li.seat .name").evaluate_all(
            """els => els.filter(e => e.scrollWidth > e.clientWidth + 1
                                    || e.scrollHeight > e.clientHeight + 1)
                         .map(e => e.textContent)"""
        )
        assert cut == [], (viewport, cut)
        broken = page.locator("#players li.seat .name").evaluate_all(BROKEN_WORDS)
        assert broken == [], (viewport, broken)
    shot(page, f"seating-4-bots-{rules}-phone", PHONE)
    shot(page, f"seating-4-bots-{rules}-desktop", DESKTOP)


def test_bob_sees_alice_on_top_at_two_seats(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob], target=50)
    table = play_first_moves(table, [alice, bob], turns=4)
    page = signed_in(new_page, base, "bob")
    _open(page, base, table)
    assert _positions(page) == {1: "bottom", 0: "top"}
    _assert_turn_marked(page, table)
    bottom = _box(page, "#players li[data-position=bottom]")
    top = _box(page, "#players li[data-position=top]")
    assert top["y"] < bottom["y"]
    shot(page, "seating-2-phone")
    shot(page, "seating-2-desktop", DESKTOP)


def test_a_finished_table_keeps_the_reader_at_the_bottom(live_server, new_page, alice, bob):
    """Once the match is over (here alice abandoned, R26) bob still sees himself at the
    bottom, as while he played, and no seat is marked to play."""
    base = live_server.url
    table = seat_friends(alice, [bob], target=50)
    services.table_abandon(table_id=table.pk, user=alice)
    page = signed_in(new_page, base, "bob")
    _open(page, base, table)
    page.wait_for_selector("#result:not([hidden])")
    assert _positions(page) == {1: "bottom", 0: "top"}
    assert "(tú)" in page.inner_text("#players li[data-position=bottom]")
    assert page.locator("#players li.seat.turn").count() == 0
    assert page.locator("#players li.seat[aria-current]").count() == 0


def _side_gaps(page, selector: str) -> tuple[float, float]:
    """The space left and right of ``selector`` on the screen, in CSS pixels."""
    box = _box(page, selector)
    width = page.evaluate("document.documentElement.clientWidth")
    return box["x"], width - box["x"] - box["width"]


def test_the_table_page_keeps_the_home_pages_side_margins_with_a_long_line(
    live_server, new_page, alice, bob, carol, dave
):
    """At 390x844 the table page leaves the home page's 16 px each side, and a long line
    (20 turns of four players) still fits the board: no tile outside it, nothing wider
    than the screen."""
    base = live_server.url
    table = seat_friends(alice, [bob, carol, dave], target=100)
    table = play_first_moves(table, [alice, bob, carol, dave], turns=20)
    page = signed_in(new_page, base, "alice")
    home = _side_gaps(page, "main > .page-head")
    _open(page, base, table)
    page.wait_for_selector("#line .placed")
    placed = page.locator("#line .placed").count()
    assert placed >= 12, placed
    shot(page, "seating-long-line-phone")
    shot(page, "seating-long-line-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    assert home == (16, 16)
    assert _side_gaps(page, "#table") == home
    board = _box(page, "#board")
    for tile in page.locator("#line .placed").all():
        box = tile.bounding_box()
        assert board["x"] <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _assert_hand_in_one_row(page, page.locator("#hand button.tile-btn").count())


#: The tops of the turn mark and of the first letter of the name after it.
FIRST_LINES = """name => {
    const mark = name.querySelector(".turn-mark").getBoundingClientRect().top;
    const text = [...name.childNodes].find(node => node.nodeType === Node.TEXT_NODE);
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, 1);
    return [mark, range.getClientRects()[0].top];
}"""


def test_a_long_name_keeps_the_turn_mark_on_its_first_line(
    live_server, new_page, django_user_model
):
    """A name longer than its seat's line wraps inside its box with the turn mark ▶ on
    its first line, not alone above it (the last look: "Bartolomeodelasmercedesgarcia1"
    at 390 px)."""
    from tests.conftest import _make_user

    long_name = "Bartolomeodelasmercedesgarcia1"
    player = _make_user(django_user_model, long_name)
    table = services.table_create(creator=player, seats=3, target=100, others=["nino", "nino"])
    page = signed_in(new_page, live_server.url, long_name)
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        _open(page, live_server.url, table)
        seat = page.locator("#players li.seat[data-seat='0']")
        assert "turn" in seat.get_attribute("class")  # the bots played up to her turn
        mark, first = seat.locator(".name").evaluate(FIRST_LINES)
        assert abs(mark - first) < 4, (viewport, mark, first)  # on the name's first line
        cut = seat.locator(".name").evaluate("e => e.scrollWidth > e.clientWidth + 1")
        assert not cut, viewport
    shot(page, "seating-long-name-phone", PHONE)


def _lead_for_alice(table: Table, alice, rng) -> dict | None:
    """Alice plays random legal moves through the services (the bots answer) until a
    hand that her pair leads begins on her turn: her view then, or None if the match
    ends first."""
    for _ in range(400):
        table, seat = services.table_for_user(table.pk, alice)
        view = selectors.table_view_for_user(table, seat, alice)
        game = view["game"]
        if view["status"] != "playing":
            return None
        if game["hand_number"] >= 1 and not game["line"] and game.get("lead_seats"):
            return view
        move = rng.choice(game["legal_moves"])
        services.move_play(
            table_id=table.pk,
            user=alice,
            version=view["version"],
            tile=move["tile"],
            end=move["end"],
        )
    return None


def test_alice_is_told_she_leads_when_her_bot_partner_could(live_server, new_page, alice):
    """Cuban: either partner of the pair that won may lead; her bot partner waits for
    alice to choose who leads (``transitions.lead_chooser``), and the page says so
    instead of "you or your partner may lead"."""
    import random

    rng = random.Random(20)
    for _ in range(8):
        table = services.table_create(
            creator=alice, rules="cuban", seats=4, others=["garabato", "nino", "garabato"]
        )
        view = _lead_for_alice(table, alice, rng)
        if view is not None:
            break
    # The pair leads, the seat that went out first named first (HandState.lead_seats).
    assert view is not None and sorted(view["game"]["lead_seats"]) == [0, 2]
    page = signed_in(new_page, live_server.url, "alice")
    page.set_viewport_size(PHONE)
    _open(page, live_server.url, table)
    # The ended hand's summary says who leads the new one, as the status line will.
    held = page.inner_text("#last-hand .next-turn")
    assert "elige quién sale" in held, held
    assert "ni robar" not in page.inner_text("#last-hand")  # nobody draws in cuban
    shot(page, "cuban-lead-bot-partner-held-phone", PHONE)
    page.get_by_role("button", name="Siguiente mano").click()
    page.locator("#status-line", has_text="Salen ustedes").wait_for()
    status = page.inner_text("#status-line")
    assert "elige quién sale" in status, status
    assert page.locator("#line .placed").count() == 0  # nobody has led: alice leads
    shot(page, "cuban-lead-bot-partner-phone", PHONE)
