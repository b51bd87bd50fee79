"""Issue 16 in a real browser (Chromium via Playwright): a hand ending on screen and held
until "Siguiente mano" (in each browser, unless the player has played the next hand
elsewhere), who led the next hand, and a match ending with every score. Screenshots at
1280x800 and 390x844 go to artifacts/ for a person to look at."""

from __future__ import annotations

import time
from functools import partial

import pytest
from django.conf import settings

from dominoes import new_seed, start_hand
from tables import services
from tables.models import Move, Seat, Table
from tables.services import lobby
from tests.conftest import PASSWORD
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    PHONE,
    play_a_turn,
    refresh,
    shot,
    signed_in,
)
from tests.support.engine import deal_of, empty_match, play
from tests.support.finished import play_while

pytestmark = BROWSER_MARKS


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def test_a_hand_ends_and_the_board_stays_until_siguiente_mano(live_server, new_page, ana):
    base = live_server.url
    table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
    play_while(
        ana,
        table.pk,
        while_=lambda v: v["game"]["hand_number"] == 0 and len(v["game"]["tiles"]) > 2,
    )
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    deadline = time.monotonic() + 60
    while not page.locator("#last-hand.held").count():
        assert time.monotonic() < deadline, "the hand did not end"
        if not play_a_turn(page, next_hand=False):
            refresh(page)
            page.wait_for_timeout(200)
    view = page.request.get(f"{base}/api/v1/tables/{table.pk}/").json()
    last = view["game"]["last_hand"]
    assert last["number"] == 0 and view["game"]["hand_number"] == 1
    # The summary is on top, the final line and every seat's tiles are shown, no hand.
    assert page.evaluate("document.getElementById('result').nextElementSibling.id") == "last-hand"
    assert "Fin de la mano 1" in page.inner_text("#last-hand-title")
    if last["points"] > 1:  # "se anota", not "suma": beside the counts, "suma 35" read as one
        # ana reads her own win in the second person, Nino's by name.
        scored = "Te anotas" if view["your_seat"] in last["winners"] else "Nino se anota"
        assert f"{scored} {last['points']} puntos." in page.inner_text("#last-hand")
    assert page.locator("#line .placed").count() == len(last["line"])
    assert page.locator("#last-hand .holdings li").count() == 2
    shown = page.locator("#last-hand .holdings .mini-tiles .tile").count()
    assert shown == sum(len(tiles) for tiles in last["holdings"])
    assert page.locator("#my-hand").is_hidden()
    top = page.locator("#last-hand").bounding_box()["y"]
    shot(page, "away-hand-over-phone")
    shot(page, "away-hand-over-desktop", DESKTOP)
    page.set_viewport_size(PHONE)
    assert top < 844, "the summary starts out of sight on a phone"
    page.wait_for_timeout(3000)  # polls come and go: the hand stays
    assert page.locator("#last-hand.held").count() == 1

    page.click("#last-hand button.next-hand")
    page.wait_for_selector("#my-hand:not([hidden])")
    assert page.locator("#last-hand.on-top").count() == 0
    assert page.locator("#hand button.tile-btn").count() >= 1
    if view["your_turn"]:
        assert "Te toca jugar" in page.inner_text("#status-line")
    # Said once, by the status line: the message line under it said "Te toca jugar." too.
    assert "Te toca jugar" not in page.inner_text("#message")
    assert page.inner_text("main").count("Te toca jugar.") == (1 if view["your_turn"] else 0)
    shot(page, "away-next-hand-phone")
    page.reload()  # this browser has let the hand go
    page.wait_for_selector("#my-hand:not([hidden])")
    assert page.locator("#last-hand.held").count() == 0


def test_siguiente_mano_says_te_toca_jugar_once(live_server, new_page, ana):
    """Ana leads the second hand (R10: Nino led the first). After "Siguiente mano" the
    status line says "Te toca jugar."; the message line under it said it again."""
    for _ in range(40):
        table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
        if services.match_of(Table.objects.get(pk=table.pk)).hand.leader == 1:
            break
    else:
        pytest.fail("Nino led no first hand in 40 deals")
    view = play_while(ana, table.pk, while_=lambda v: v["game"]["hand_number"] == 0)
    assert view["status"] == "playing" and view["your_turn"], view["status"]
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.click("#last-hand button.next-hand")
    page.wait_for_selector("#table.my-turn #my-hand:not([hidden])")
    assert "Te toca jugar." in page.inner_text("#status-line")
    assert page.inner_text("#message") == ""
    assert page.inner_text("main").count("Te toca jugar.") == 1
    shot(page, "next-hand-your-turn-phone")
    shot(page, "next-hand-your-turn-desktop", DESKTOP)


def _played_in_a_later_hand(view: dict) -> bool:
    """Whether the seat of ``view`` has played a tile in a hand after the first."""
    game = view["game"]
    if game["hand_number"] == 0:
        return False
    return any(e["kind"] == "play" and e["seat"] == view["your_seat"] for e in game["log"])


def test_ana_played_the_next_hand_elsewhere_and_this_browser_does_not_hold_the_old_one(
    live_server, new_page, ana
):
    """The ended hand is held until "Siguiente mano" in each browser; a player who has
    played in the new hand since (on her phone, say) has let it go everywhere: a browser
    that never saw the table opens it on the hand being played."""
    base = live_server.url
    table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
    view = play_while(ana, table.pk, while_=lambda v: not _played_in_a_later_hand(v))
    assert view["status"] == "playing", "the match ended before a second hand"
    page = signed_in(new_page, base, "ana")  # a fresh browser: nothing let go in it
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.goto(f"{base}/mesas/{table.pk}/")
        page.wait_for_selector("#my-hand:not([hidden])")
        assert page.locator("#last-hand.held").count() == 0
        assert page.locator("#last-hand button.next-hand").count() == 0
    shot(page, "away-played-elsewhere-phone", PHONE)


def test_the_held_hand_says_who_led_the_next_one_and_whose_turn_it_is(live_server, new_page, ana):
    """When Nino has already led the new hand (a bot plays at once), the ended hand's box
    says so before "ahora te toca a ti": "te toca a ti" alone read as "you lead". The
    status line says the hand is over, in every browser and after a poll alike."""
    base = live_server.url
    for _ in range(8):
        table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
        view = play_while(ana, table.pk, while_=lambda v: v["game"]["hand_number"] == 0)
        led = [e for e in view["game"]["log"] if e["kind"] == "play"]
        if view["status"] == "playing" and view["your_turn"] and led:
            break
    else:
        raise AssertionError("Nino never led a second hand")
    assert led[0]["seat"] != view["your_seat"]
    page = signed_in(new_page, base, "ana")
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.goto(f"{base}/mesas/{table.pk}/")
        page.wait_for_selector("#last-hand.held")
        text = page.inner_text("#last-hand .next-turn")
        assert "En la mano siguiente ya salió Nino; ahora te toca a ti." in text, text
        assert page.inner_text("#status-line").startswith("Fin de la mano 1."), viewport
        page.wait_for_timeout(3500)  # a poll that finds nothing new keeps the status line
        assert page.inner_text("#status-line").startswith("Fin de la mano 1."), viewport
    shot(page, "away-held-hand-nino-led-phone", PHONE)


def test_a_match_ends_with_every_score_who_won_and_why(live_server, new_page, ana):
    base = live_server.url
    table = services.table_create(creator=ana, seats=3, target=50, others=["nino", "nino"])
    view = play_while(ana, table.pk, while_=lambda v: True)
    assert view["status"] == "finished"
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result")
    assert "Se alcanzó la meta." in result
    assert f"Manos jugadas: {view['game']['hand_number'] + 1}." in result
    names = page.locator("#result .final-scores .name").all_inner_texts()
    assert sorted(name.rstrip(" ★") for name in names) == ["Nino", "Nino II", "ana"]
    scores = sorted(
        int(s)
        for s in page.locator("#result .final-scores .score").evaluate_all(
            "els => els.map(e => e.dataset.score)"
        )
    )
    assert scores == sorted(view["game"]["scores"])
    assert page.locator("#result a[href='/']").inner_text() == "Mis mesas"
    assert page.locator("#my-hand").is_hidden()  # no empty "Tus fichas"
    assert "La última mano" in page.inner_text("#last-hand-title")
    assert page.locator("#last-hand button.next-hand").count() == 0
    shot(page, "away-match-over-phone")
    shot(page, "away-match-over-desktop", DESKTOP)


def test_a_hand_that_ended_while_away_is_part_of_the_since_sentence(live_server, new_page, ana):
    """"Desde tu última visita: nino jugó 6-4, terminó la mano 1, te toca.": the parts
    after the colon start small, the reader's own moves (played elsewhere) and the hand's
    end alike (the last look read "…, Terminó la mano 1, …")."""
    base = live_server.url
    table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
    play_while(ana, table.pk, while_=lambda view: view["game"]["hand_number"] == 0)
    first_hand = Move.objects.filter(table=table, hand__number=0).order_by("version")
    last_two = list(first_hand)[-2:]
    Seat.objects.filter(table=table, user=ana).update(seen_version=last_two[0].version - 1)
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    sentence = page.inner_text("#since-line")
    assert sentence.startswith("Desde tu última visita: "), sentence
    assert "terminó la mano 1" in sentence, sentence
    parts = sentence.removeprefix("Desde tu última visita: ").split(", ")
    capitals = ("Terminó", "Jugaste", "Saliste", "Pasaste", "Robaste")
    assert not any(part.startswith(capitals) for part in parts), sentence
    shot(page, "since-hand-ended-phone")


#: A first hand that Nino (seat 2, holding 6-6) wins by a domino while ana still holds
#: 1-0: one point (R7, R17, R20). Every play is the only tile that fits, so no draws.
ONE_POINT_DEAL = ["6-2 2-2 2-1 1-1 4-1 4-2 1-0", "6-6 6-5 5-5 5-4 4-4 4-3 3-0"]
ONE_POINT_PLAYS = [
    (1, "6-6", None), (0, "6-2", 6), (1, "6-5", 6), (0, "2-2", 2), (1, "5-5", 5),
    (0, "2-1", 2), (1, "5-4", 5), (0, "1-1", 1), (1, "4-4", 4), (0, "4-1", 1),
    (1, "4-3", 4), (0, "4-2", 4), (1, "3-0", 3),
]  # fmt: skip


def _one_point_match(seats, target, seed=None, rules=None, *, ana_wins=False):
    """``engine.new_match`` for the table of the one-point test: the first hand played
    out as ``ONE_POINT_PLAYS``, the second dealt from ``seed`` (the loser leads it, R10).
    ``ana_wins``: the two hands and seats swapped, ana dominoes and Nino holds 1-0."""
    deal = ONE_POINT_DEAL[::-1] if ana_wins else ONE_POINT_DEAL
    dealt, stock = deal_of(deal)
    match = start_hand(empty_match(seats, target), seed=new_seed(), dealt=dealt, stock=stock)
    for seat, tile, end in ONE_POINT_PLAYS:
        match = play(match, 1 - seat if ana_wins else seat, tile, end)
    return start_hand(match, seed=seed)


def test_a_one_point_hand_says_1_punto(live_server, new_page, ana, monkeypatch):
    """'Nino se anota 1 punto.' and '1 punto' on the scoreboard, where they read
    '1 puntos'; '0 puntos' stays plural, and English says '1 point'."""
    base = live_server.url
    monkeypatch.setattr(lobby, "new_match", _one_point_match)
    table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#last-hand.held")
    summary = page.inner_text("#last-hand")
    assert "Nino dominó: se quedó sin fichas." in summary, summary  # a bot: by name
    assert "Nino se anota 1 punto." in summary, summary
    assert "Dominaste" not in summary and "Te anotas" not in summary, summary
    assert "Cuentan las fichas del rival (Regla R20): 1 punto." in summary, summary
    assert page.locator("#scoreboard .score").all_inner_texts() == ["0 puntos", "1 punto"]
    shot(page, "one-point-phone", PHONE)
    shot(page, "one-point-desktop", DESKTOP)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": base}])
    page.reload()
    page.wait_for_selector("#last-hand.held")
    summary = page.inner_text("#last-hand")
    assert "Nino scores 1 point." in summary and "(Rule R20): 1 point." in summary, summary
    assert page.locator("#scoreboard .score").all_inner_texts() == ["0 points", "1 point"]


def test_the_hand_summary_speaks_to_the_reader_who_won_it(live_server, new_page, ana, monkeypatch):
    """Ana dominoes the first hand and reads it in the second person: the summary said
    'ana dominó: se quedó sin fichas.' and 'ana se anota 1 punto.' of herself, and now
    'Dominaste: te quedaste sin fichas.' and 'Te anotas 1 punto.'; English 'You score'."""
    base = live_server.url
    monkeypatch.setattr(lobby, "new_match", partial(_one_point_match, ana_wins=True))
    table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#last-hand.held")
    summary = page.inner_text("#last-hand")
    assert "Dominaste: te quedaste sin fichas." in summary, summary
    assert "Te anotas 1 punto." in summary, summary
    assert "ana dominó" not in summary and "ana se anota" not in summary, summary
    shot(page, "hand-won-you-phone", PHONE)
    shot(page, "hand-won-you-desktop", DESKTOP)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": base}])
    page.reload()
    page.wait_for_selector("#last-hand.held")
    assert "You score 1 point." in page.inner_text("#last-hand")


def test_a_pair_that_won_the_hand_reads_tu_pareja_y_tu(live_server, new_page, ana):
    """At four seats (two pairs, R2) ana's pair wins the first hand: the summary said
    'ana y Nino II se anotan 12 puntos.' and now 'Tu pareja y tú se anotan 12 puntos.'."""
    base = live_server.url
    for _ in range(8):
        table = services.table_create(creator=ana, seats=4, target=100, others=["nino"] * 3)
        view = play_while(ana, table.pk, while_=lambda v: v["game"]["hand_number"] == 0)
        last = view["game"]["last_hand"]
        won = last and set(last["winners"]) == {0, 2} and last["points"] > 1
        if won and view["status"] == "playing":
            break
    else:
        pytest.fail("ana's pair won no first hand in 8 tables")
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#last-hand.held")
    summary = page.inner_text("#last-hand")
    assert f"Tu pareja y tú se anotan {last['points']} puntos." in summary, summary
    assert "se anotan" not in summary.replace("Tu pareja y tú se anotan", ""), summary
    if last["end"] == "domino" and not last["holdings"][0]:
        assert "Dominaste: te quedaste sin fichas." in summary, summary
    elif last["end"] == "domino":  # her partner, a bot: by name
        assert "Nino II dominó: se quedó sin fichas." in summary, summary
    shot(page, "pair-won-you-phone", PHONE)
    shot(page, "pair-won-you-desktop", DESKTOP)
