"""Issue 16 in a real browser (Chromium via Playwright), with named players: the way back
to a table through one's own invite link, a waiting table cancelled, coming back to what
is new, the rematch, a finished match stepped through with the keyboard (the end of a hand
and of a match on screen: test_browser_hand_end.py). Screenshots at 1280x800 and 390x844
go to artifacts/ for a person to look at."""

from __future__ import annotations

import random
import re

import pytest

from tables import selectors, services
from tables.models import Move, Seat, Table
from tests.conftest import PASSWORD
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    PHONE,
    play_a_turn,
    refresh,
    shot,
    signed_in,
    version,
    wait_for_version,
)
from tests.support.finished import play_while

pytestmark = BROWSER_MARKS


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def bruno(django_user_model):
    return django_user_model.objects.create_user("bruno", password=PASSWORD)


def test_bruno_reopens_his_invite_link_and_lands_on_his_table(live_server, new_page, ana, bruno):
    base = live_server.url
    page_ana = signed_in(new_page, base, "ana")
    page_ana.goto(f"{base}/mesas/nueva/")
    page_ana.check("input[name=seats][value='3']")
    # Every free seat starts as a friend, the target at 50.
    assert page_ana.input_value("#id_seat_1") == page_ana.input_value("#id_seat_2") == "friend"
    assert page_ana.is_checked("input[name=target][value='50']")
    page_ana.click("#create-form button[type=submit]")
    page_ana.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    table_id = int(re.search(r"/mesas/(\d+)/$", page_ana.url).group(1))
    assert "Envía estos enlaces a tus amigos" in page_ana.inner_text("#invites")
    assert page_ana.inner_text("#abandon") == "Cancelar la mesa"
    shot(page_ana, "away-invites-phone")
    link = page_ana.locator("#invite-list .invite-url").first.input_value()

    page_bruno = new_page()
    page_bruno.goto(link)
    page_bruno.click("text=Ya tengo cuenta")
    page_bruno.fill("#id_username", "bruno")
    page_bruno.fill("#id_password", PASSWORD)
    page_bruno.click("button[type=submit].primary")
    page_bruno.wait_for_url(link)
    page_bruno.click("text=Sentarme y jugar")
    page_bruno.wait_for_url(f"{base}/mesas/{table_id}/")

    # Later, from the chat app: the same link, now his.
    page_bruno.goto(f"{base}/")
    page_bruno.goto(link)
    page_bruno.wait_for_url(f"{base}/mesas/{table_id}/")
    assert Seat.objects.get(table_id=table_id, index=1).user == bruno
    shot(page_bruno, "away-invite-reopened-phone")
    shot(page_bruno, "away-invite-reopened-desktop", DESKTOP)


def test_ana_cancels_her_waiting_table_and_it_says_cancelled(live_server, new_page, ana):
    base = live_server.url
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/nueva/")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    assert "Envía este enlace a tu amigo" in page.inner_text("#invites")
    page.click("#abandon")  # the dialog is accepted
    page.wait_for_selector("#result:not([hidden])")
    assert "Mesa cancelada" in page.inner_text("#result-title")
    assert "nadie gana ni pierde" in page.inner_text("#result")
    assert "abandon" not in page.inner_text("#result").lower()
    assert Table.objects.get(creator=ana).status == Table.Status.CLOSED
    shot(page, "away-cancelled-phone")


def test_the_signed_out_home_page_says_what_the_site_is(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    assert "Dominó por correspondencia" in page.inner_text("main")
    assert page.locator("main a[href='/reglas/']").count() == 1
    href = page.get_attribute("header a[href^='/accounts/login/']", "href")
    assert href == "/accounts/login/?next=/"
    shot(page, "away-signed-out-phone", PHONE)
    shot(page, "away-signed-out-desktop", DESKTOP)


def _play_one(user, table_id: int, rng: random.Random) -> None:
    table, seat = services.table_for_user(table_id, user)
    view = selectors.table_view_for_user(table, seat, user)
    move = rng.choice(view["game"]["legal_moves"])
    services.move_play(
        table_id=table_id, user=user, version=view["version"], tile=move["tile"], end=move["end"]
    )


def _turn(table_id: int) -> int | None:
    return Table.objects.get(pk=table_id).turn_seat


def _assert_the_log_speaks_to_bob(page) -> None:
    """The log speaks to bob of his own moves ("Jugaste 6-4"), of the others by name."""
    lines = page.locator("#log li").all_text_contents()
    assert any(line.startswith(("Jugaste ", "Saliste con ")) for line in lines), lines
    assert not any(line.startswith("bob ") for line in lines), lines
    assert any(line.startswith(("ana ", "Nino ")) for line in lines), lines


def _assert_turn_order_starts_at_the_seat_to_play(page) -> None:
    """The turn-order line (for screen readers) names the seats in the order of play, from
    the one marked to play."""
    # One read of the page: a poll may draw it again between two reads.
    names, marked, line = page.evaluate(
        """() => [
          [...document.querySelectorAll("#players .name")].map((e) => e.textContent),
          [...document.querySelectorAll("#players li.seat.turn")].map((e) => e.dataset.seat),
          document.querySelector("#turn-order .visually-hidden").textContent,
        ]"""
    )
    assert len(marked) == 1, marked
    first = int(marked[0])
    names = [name.strip("▶ ").split(" (")[0] for name in names]
    assert line == "Orden de juego: " + ", ".join(names[first:] + names[:first])


def test_bob_comes_back_after_ana_and_nino_moved_and_sees_what_is_new(
    live_server, new_page, ana, bob
):
    base = live_server.url
    for _attempt in range(5):  # a deal where bob's turn comes back within the first hand
        table = services.table_create(creator=ana, seats=3, target=100, others=["friend", "nino"])
        services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
        rng = random.Random(table.pk)
        for _ in range(6):  # up to bob's turn (ana plays, Nino on commit)
            if _turn(table.pk) == 1:
                break
            _play_one(ana, table.pk, rng)
        _play_one(bob, table.pk, rng)
        # bob saw his move's answer (here Nino answers inline, on the same commit).
        after_bob = Move.objects.filter(table=table, seat=1).latest("version").version
        Seat.objects.filter(table=table, user=bob).update(seen_version=after_bob)
        for _ in range(6):  # Nino, then ana, until bob is to play again
            if _turn(table.pk) in (1, None):
                break
            _play_one(ana, table.pk, rng)
        hand = Table.objects.get(pk=table.pk).state["hands"][-1]["number"]
        if _turn(table.pk) == 1 and hand == 0:
            break
    else:
        pytest.skip("no deal gave bob his turn back within the first hand")

    page = signed_in(new_page, base, "bob")
    assert page.locator(f"a[href='/mesas/{table.pk}/'] .changed-dot").count() == 1
    shot(page, "away-my-tables-dot-phone")
    page.goto(f"{base}/mesas/{table.pk}/")
    sentence = page.inner_text("#since-line")
    assert sentence.startswith("Desde tu última visita: ")
    assert "Nino" in sentence and "ana" in sentence and sentence.endswith("te toca.")
    marked = page.locator("#log li.since").count()
    assert marked >= 2
    assert page.locator("#log li:not(.since)").count() >= 1  # bob's own and older moves
    played = page.locator("#line .placed.newest").count()
    assert played <= 1
    assert played == 1 or "jugó" not in sentence
    _assert_the_log_speaks_to_bob(page)
    shot(page, "away-since-phone")
    shot(page, "away-since-desktop", DESKTOP)
    lists = signed_in(new_page, base, "bob")  # bob has seen it: "Mis mesas" drops the dot
    assert lists.locator(f"a[href='/mesas/{table.pk}/'] .changed-dot").count() == 0
    # bob plays: the sentence was about his last visit ("te toca") and goes (it stayed,
    # saying "te toca" under "Le toca a ana", until the page was reloaded).
    before = version(page)
    assert play_a_turn(page)
    wait_for_version(page, above=before)
    assert page.locator("#since-line").count() == 0
    # Now Nino or ana is to play: the turn order starts there, not at bob (the bottom
    # seat), after the move and on a fresh page alike.
    assert page.get_attribute("#players li.seat.turn", "data-seat") != "1"
    _assert_turn_order_starts_at_the_seat_to_play(page)
    page.reload()
    page.wait_for_selector("#players li.seat.turn")
    _assert_turn_order_starts_at_the_seat_to_play(page)


def test_the_since_line_gives_way_to_the_result_when_the_match_ends(
    live_server, new_page, ana, bruno
):
    """bruno opens the table to "Desde tu última visita: ana jugó …"; ana then abandons
    (R26) and the next poll brings the finished table: the sentence goes, the result
    takes its place, without reloading the page."""
    base = live_server.url
    table = services.table_create(creator=ana, seats=2, target=100, others=["friend"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bruno)
    rng = random.Random(table.pk)
    if _turn(table.pk) == 1:  # bruno leads: his move, seen, then ana's
        _play_one(bruno, table.pk, rng)
    seen = Table.objects.get(pk=table.pk).version
    Seat.objects.filter(table=table, user=bruno).update(seen_version=seen)
    _play_one(ana, table.pk, rng)

    page = signed_in(new_page, base, "bruno")
    page.goto(f"{base}/mesas/{table.pk}/")
    assert page.inner_text("#since-line").startswith("Desde tu última visita: ana ")
    services.table_abandon(table_id=table.pk, user=ana)
    refresh(page)
    page.wait_for_selector("#result:not([hidden])")
    assert "ana abandonó la partida." in page.inner_text("#result")
    assert page.locator("#since-line").count() == 0
    # Nobody is to play: the turn order starts at the reader, the bottom seat.
    assert page.text_content("#turn-order .visually-hidden") == "Orden de juego: bruno, ana"
    shot(page, "away-since-then-over-phone")
    shot(page, "away-since-then-over-desktop", DESKTOP)


def test_ana_asks_for_the_rematch_bruno_accepts_and_it_starts(live_server, new_page, ana, bruno):
    base = live_server.url
    table = services.table_create(creator=ana, seats=2, target=50, others=["friend"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bruno)
    services.table_abandon(table_id=table.pk, user=bruno)

    page_ana = signed_in(new_page, base, "ana")
    page_ana.goto(f"{base}/mesas/{table.pk}/")
    page_ana.wait_for_selector("#result:not([hidden])")
    assert "bruno abandonó la partida." in page_ana.inner_text("#result")
    shot(page_ana, "away-match-over-rematch-phone")
    page_ana.click("#result .ask-rematch")
    page_ana.wait_for_url(re.compile(rf".*/mesas/(?!{table.pk}/)\d+/$"))
    rematch_id = int(re.search(r"/mesas/(\d+)/$", page_ana.url).group(1))
    assert "esperando a que acepte bruno" in page_ana.inner_text("#status-line")
    assert page_ana.get_attribute("#rematch-of a", "href") == f"/mesas/{table.pk}/"

    page_bruno = signed_in(new_page, base, "bruno")
    assert "ana te propone la revancha" in page_bruno.inner_text("main")
    page_bruno.goto(f"{base}/mesas/{rematch_id}/")
    page_bruno.wait_for_selector("#rematch-offer")
    offer = page_bruno.inner_text("#rematch-offer p")
    assert offer == "ana te propone la revancha: los mismos jugadores, las mismas reglas."
    shot(page_bruno, "away-rematch-offer-phone")
    shot(page_bruno, "away-rematch-offer-desktop", DESKTOP)
    page_bruno.set_viewport_size(PHONE)
    page_bruno.click("#rematch-offer .accept-rematch")
    page_bruno.wait_for_selector("#hand button.tile-btn")
    assert Table.objects.get(pk=rematch_id).status == Table.Status.PLAYING

    refresh(page_ana)
    page_ana.wait_for_selector("#hand button.tile-btn")
    shot(page_ana, "away-rematch-started-phone")
    page_ana.goto(f"{base}/mesas/{table.pk}/")  # the finished table links to its rematch
    page_ana.wait_for_selector(f"#result a[href='/mesas/{rematch_id}/']")


def test_ana_steps_through_a_finished_match_with_the_keyboard(live_server, new_page, ana):
    base = live_server.url
    table = services.table_create(creator=ana, seats=2, target=50, others=["nino"])
    view = play_while(ana, table.pk, while_=lambda v: True)
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.click("#result a[href$='/partida/']")
    page.wait_for_url(f"{base}/mesas/{table.pk}/partida/")
    assert page.get_attribute("#replay", "data-place") == "0:0"
    assert "Reparto de la mano 1" in page.inner_text("#action")
    assert "✓" in page.inner_text("#seed-ok")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay", "data-place") == "0:3"
    assert page.locator("#line .placed").count() >= 1
    shot(page, "away-replay-phone")
    shot(page, "away-replay-desktop", DESKTOP)
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#replay", "data-place") == "0:2"
    hands = view["game"]["hand_number"] + 1
    if hands > 1:
        page.keyboard.press("ArrowDown")
        assert page.get_attribute("#replay", "data-place") == "1:0"
        page.keyboard.press("ArrowUp")
        assert page.get_attribute("#replay", "data-place") == "0:0"
    for _ in range(hands - 1):
        page.keyboard.press("ArrowDown")
    while page.is_enabled("#next-move"):
        page.keyboard.press("ArrowRight")
    shown = page.locator("#seats .score").all_inner_texts()
    scores = view["game"]["scores"]
    assert shown == [f"{score} punto" if score == 1 else f"{score} puntos" for score in scores]
    assert page.get_attribute("#download", "href") == f"/api/v1/tables/{table.pk}/record/"
