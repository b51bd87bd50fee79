"""End to end in a real browser (Debian's Chromium driven by Playwright): sign up through a
share link, play a whole hand between two people, and a whole match against a bot, by
clicking tiles. Screenshots of the table page go to artifacts/ for a human to look at.
The browser and the players' steps are in tests/support/browser.py and conftest.py.
"""

from __future__ import annotations

import re
import time

import pytest

from tables.models import Table
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    PHONE,
    create_table,
    log_in,
    open_create_form,
    play_a_turn,
    refresh,
    shot,
    shown_scores,
    signed_in,
    version,
    wait_for_version,
)

pytestmark = BROWSER_MARKS


def _create_account_from_the_invite(page, username: str, password: str) -> None:
    """On an open invite page: follow "Crear cuenta" and send the sign-up form."""
    page.click("text=Crear cuenta")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")  # issue 17: required for new accounts
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("button[type=submit].primary")


def _play_until_the_hand_ends(pages: list) -> None:
    """Each page (a player at the table) refreshes and plays its turn when it has one,
    until the first page shows the hand's end (150 s at most); a screenshot of the first
    page after four rounds with a move."""
    page_a = pages[0]
    deadline = time.monotonic() + 150
    turns = 0
    while not page_a.locator("#last-hand").is_visible():
        assert time.monotonic() < deadline, "the hand did not end in time"
        played = False
        for page in pages:
            refresh(page)
            page.wait_for_timeout(100)
            played = play_a_turn(page) or played
        turns += played
        if turns == 4:
            shot(page_a, "table-2p-phone")
        if not played:
            page_a.wait_for_timeout(200)


def test_two_friends_sign_up_through_the_link_and_play_a_hand(live_server, new_page, alice):
    base = live_server.url
    page_a = new_page()
    page_a.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    log_in(page_a, base, "alice")
    page_a.goto(f"{base}/mesas/nueva/")
    shot(page_a, "create-phone")
    table_id = create_table(page_a, base, 2, 50, ["friend"])

    page_a.click("#invite-list .copy-link")
    page_a.wait_for_selector("#message.ok")
    link = page_a.evaluate("navigator.clipboard.readText()")
    assert link == page_a.input_value("#invite-list .invite-url")
    assert link.startswith(f"{base}/invitacion/")
    shot(page_a, "waiting-phone")

    page_b = new_page()
    page_b.goto(link)
    assert "alice te invita" in page_b.inner_text("h1")
    _create_account_from_the_invite(page_b, "bob", "a-long-pass-phrase")
    page_b.wait_for_url(link)
    page_b.click("text=Sentarme y jugar")
    page_b.wait_for_url(f"{base}/mesas/{table_id}/")
    page_b.wait_for_selector("#hand button.tile-btn")

    refresh(page_a)
    page_a.wait_for_selector("#hand button.tile-btn")
    _play_until_the_hand_ends([page_a, page_b])

    refresh(page_b)
    page_b.wait_for_selector("#last-hand:not([hidden])")
    api = page_a.request.get(f"{base}/api/v1/tables/{table_id}/").json()
    table = Table.objects.get(pk=table_id)
    wait_for_version(page_a, at_least=table.version)
    assert shown_scores(page_a) == api["game"]["scores"]
    assert shown_scores(page_b) == api["game"]["scores"]
    last_hand = api["game"]["last_hand"]
    assert sum(api["game"]["scores"]) == (last_hand["points"] if last_hand["winners"] else 0)
    # The numbers sentence renders the engine's explanation: its rule and its points.
    why = api["game"]["last_hand"]["explanation"]
    numbers = page_a.inner_text("#last-hand .why.numbers")
    assert why["rule"] in numbers and str(why["points"]) in numbers, (why, numbers)
    shot(page_a, "hand-over-phone")
    shot(page_a, "hand-over-desktop", DESKTOP)


def test_alice_plays_a_whole_match_against_garabato(live_server, new_page, alice):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    table_id = create_table(page, base, 2, 50, ["garabato"])
    page.wait_for_selector("#hand button.tile-btn")

    deadline = time.monotonic() + 240
    moves = 0
    while not page.locator("#result").is_visible():
        assert time.monotonic() < deadline, "the match did not end in time"
        if play_a_turn(page, keyboard=moves < 2):
            if moves < 2:  # a keyboard player keeps focus in the hand after a move
                assert page.evaluate(
                    "document.getElementById('my-hand').contains(document.activeElement)"
                )
            moves += 1
            if moves == 3:
                shot(page, "table-phone", PHONE)
                shot(page, "table-desktop", DESKTOP)
                page.set_viewport_size(PHONE)
        else:
            refresh(page)
            page.wait_for_timeout(150)

    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.FINISHED
    assert max(s.score for s in table.seat_set.all()) >= 50
    headline = page.inner_text("#result .headline")
    assert headline in (
        "¡Has ganado la partida!",
        "Garabato gana la partida. Has perdido la partida.",
    )
    assert shown_scores(page) == [s.score for s in table.seat_set.order_by("index")]
    shot(page, "match-over-phone")
    shot(page, "match-over-desktop", DESKTOP)


def test_abandoning_asks_first_and_shows_the_result(live_server, new_page, alice):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    table_id = create_table(page, base, 2, 100, ["nino"])
    page.wait_for_selector("#hand button.tile-btn")

    page.click("#abandon")  # the confirmation dialog is accepted by new_page

    page.wait_for_selector("#result:not([hidden])")
    assert "Nino gana la partida" in page.inner_text("#result")
    # Said to her: it read "alice abandonó la partida." to alice herself.
    assert "Abandonaste la partida." in page.inner_text("#result")
    assert "alice abandonó" not in page.inner_text("#result")
    assert page.locator("#abandon").is_hidden()
    assert Table.objects.get(pk=table_id).outcome == Table.Outcome.ABANDONED
    page.goto(f"{base}/")
    assert "Perdiste" in page.inner_text("main")
    shot(page, "home-phone")


def test_rule_profiles_in_the_browser(live_server, new_page, alice):
    """The create form keeps each profile's seats and target; a cuban table (double-nine)
    is drawn; a first_double player without a fitting tile gets Draw/Pass buttons."""
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    open_create_form(page, base, "first_double")
    assert page.locator("#target-field").is_hidden()
    assert page.locator("#single-hand-note").is_visible()
    page.select_option("#id_rules", "cuban")
    assert page.locator("#target-field").is_visible()
    visible = page.locator("#seats-field label.choice:visible").all_inner_texts()
    assert [text.strip() for text in visible] == ["4"]
    assert page.is_checked("input[name=seats][value='4']")
    targets = page.locator("#target-field label.choice:visible").all_inner_texts()
    assert [text.strip() for text in targets] == ["100 puntos"]
    assert page.get_attribute("#rules-link", "href") == "/reglas/perfiles/#perfil-cuban"
    shot(page, "create-cuban-phone")
    for index, bot in enumerate(["garabato", "nino", "garabato"], start=1):
        page.select_option(f"#id_seat_{index}", bot)
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    page.wait_for_selector("#hand button.tile-btn")
    assert "Cubanas (doble nueve)" in page.inner_text("#profile-link")
    assert page.locator("#hand button.tile-btn").count() == 10
    assert page.inner_text("#stock") == "Fuera del juego: 15 fichas"
    for _ in range(40):
        if page.locator("#table.my-turn").count() and page.locator(".tile .pip.p9").count():
            break
        if not play_a_turn(page):
            refresh(page)
            page.wait_for_timeout(150)
    shot(page, "table-cuban-phone", PHONE)

    # first_double: play until alice has no fitting tile and stock is left; new deals
    # (fresh seeds) until that happens, bounded.
    for _attempt in range(6):
        open_create_form(page, base, "first_double")
        page.check("input[name=seats][value='2']")
        page.select_option("#id_seat_1", "garabato")
        page.click("#create-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
        for _ in range(60):
            if (
                page.locator("#choices:not([hidden])").count()
                or page.locator("#result").is_visible()
            ):
                break
            if not play_a_turn(page):
                refresh(page)
                page.wait_for_timeout(150)
        if page.locator("#choices:not([hidden])").count():
            break
    else:
        pytest.fail("no first_double deal gave alice a draw-or-pass choice")
    assert page.locator("#choices button").all_inner_texts() == ["Robar", "Pasar"]
    shot(page, "choices-first-double-phone", PHONE)
    before = version(page)
    page.click("#choices button[data-action=draw]")
    wait_for_version(page, above=before)
    assert "Has robado una ficha." in page.inner_text("#message")


#: What the page shows of the two hands a player holds, read in one script.
_TWO_HANDS = """() => ({
  mine: document.querySelector("#table.my-turn") !== null,
  seat: document.querySelector("#hand").dataset.seat,
  other: document.querySelector("#other-tiles").dataset.seat,
  status: document.querySelector("#status-line").innerText,
  title: document.querySelector("#hand-title").innerText,
})"""


def test_seven_plus_seven_alice_plays_both_hands_of_her_pair(live_server, new_page, alice):
    """seven_plus_seven against Nino (at seats 2 and 4): alice sees both her hands, the
    page says which one plays, and she plays a whole hand clicking the tiles of each."""
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    open_create_form(page, base, "seven_plus_seven")
    assert page.locator("#two-hands-note").is_visible()
    assert page.locator("#pairs-note").is_hidden()
    assert page.inner_text("#seat-1-label") == "La otra pareja (asientos 2 y 4)"
    assert page.locator(".seat-choice[data-seat='2']").is_hidden()
    assert page.locator(".seat-choice[data-seat='3']").is_hidden()
    page.select_option("#id_seat_1", "nino")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    table_id = int(re.search(r"/mesas/(\d+)/$", page.url).group(1))
    page.wait_for_selector("#hand button.tile-btn")
    assert "Siete más siete" in page.inner_text("#profile-link")
    assert page.locator("#other-hand").is_visible()
    assert page.locator("#other-tiles .tile-btn").count() >= 6
    assert page.locator("#other-tiles button").count() == 0  # shown, never playable
    players = [n.strip("▶ ") for n in page.locator("#players .name").all_inner_texts()]
    assert players == [  # a no-break space: "(asiento 1)" stays on one line
        "alice (asiento\u00a01) (tú)",
        "Nino (asiento\u00a02) (bot)",
        "alice (asiento\u00a03) (tú)",
        "Nino (asiento\u00a04) (bot)",
    ]

    played_with: set[str] = set()
    deadline = time.monotonic() + 150
    while not page.locator("#last-hand").is_visible():
        assert time.monotonic() < deadline, "the hand did not end in time"
        # Read in one go: the page redraws between separate reads when a bot's move lands.
        shown = page.evaluate(_TWO_HANDS)
        if shown["mine"]:
            seat = shown["seat"]
            assert seat in ("0", "2") and {seat, shown["other"]} == {"0", "2"}, shown
            assert f"Te toca jugar con tu mano del asiento {int(seat) + 1}." in shown["status"]
            assert shown["title"] == f"Tu mano del asiento {int(seat) + 1}"
            if len(played_with) == 1 and seat not in played_with:
                shot(page, "table-seven-plus-seven-phone", PHONE)
            if play_a_turn(page):
                played_with.add(seat)
                continue
        refresh(page)
        page.wait_for_timeout(150)
    assert played_with == {"0", "2"}, played_with
    why = page.request.get(f"{base}/api/v1/tables/{table_id}/").json()["game"]["last_hand"]
    numbers = page.inner_text("#last-hand .why.numbers")  # the pair's own tiles count (R20)
    if why["explanation"]["decided_by"] == "domino":
        assert "Cuentan las fichas de todos, también las de la pareja" in numbers, numbers
    # The held hand's log: alice's moves in the second person, each with its hand.
    log = page.locator("#log li").all_text_contents()
    for seat in played_with:
        own = rf"^(Jugaste|Saliste con) \d-\d \(tu mano del asiento\u00a0{int(seat) + 1}\)$"
        assert any(re.match(own, line) for line in log), log
    assert not any(line.startswith("alice") for line in log), log
    state = page.request.get(f"{base}/api/v1/tables/{table_id}/").json()
    assert state["your_seats"] == [0, 2]
    assert shown_scores(page) == state["game"]["scores"][:2]


def test_seven_plus_seven_share_link_names_both_seats_of_the_pair(live_server, new_page, alice):
    """The waiting table's link for a friend takes seats 2 and 4: the label says so."""
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    open_create_form(page, base, "seven_plus_seven")
    page.select_option("#id_seat_1", "friend")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    page.wait_for_selector("#invite-list .invite-url")
    assert page.locator("#invite-list label").all_inner_texts() == [
        "Asientos 2 y 4 (la otra pareja: las dos manos)"
    ]
