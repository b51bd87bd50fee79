"""Table talk in a real browser: two players write to each other from the table page (text
and a quick phrase), and at a partnership table what ana writes to her partner during a
hand stays with her, marked as waiting for the hand's end, with the rule said where she
types; the move a held message followed reads as the log says it, the reader's own in the
second person. Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

import random
import re

from dominoes import view_for
from moderation.services import talk_post
from tables import services
from tables.models import Hand, Move, Seat, Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, refresh, shot, signed_in
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS


def _wait_for_text(page, text: str) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('#talk-list .talk-text')]"
        ".some((node) => node.textContent === text)",
        arg=text,
    )


def _at_the_table(new_page, base: str, table, *names: str) -> list:
    """A signed-in page at ``table`` for each player named."""
    pages = [signed_in(new_page, base, name) for name in names]
    for page in pages:
        page.goto(f"{base}/mesas/{table.pk}/")
    return pages


def _write(page, text: str) -> None:
    page.fill("#talk-text", text)
    page.click("#talk-send")


def test_two_players_talk_from_the_table_page(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    page_a, page_b = _at_the_table(new_page, base, table, "alice", "bob")
    page_a.wait_for_selector("#talk-phrases .phrase")
    assert "llegan al momento" in page_a.inner_text("#talk-rule")

    _write(page_a, "<b>¿Jugamos otra después?</b>")
    page_a.wait_for_selector("#talk-status.ok")
    refresh(page_b)
    _wait_for_text(page_b, "<b>¿Jugamos otra después?</b>")  # shown as text, not HTML
    assert page_b.locator("#talk-list b").count() == 0

    page_b.click("#talk-phrases .phrase:has-text('Gracias')")
    page_b.wait_for_selector("#talk-status.ok")
    refresh(page_a)
    _wait_for_text(page_a, "Gracias")
    shot(page_b, "talk-phone", PHONE)
    shot(page_b, "talk-desktop", DESKTOP)

    page_b.click("#talk-list .talk-message:not(.mine) button:has-text('Reportar')")
    page_b.select_option("#talk-report-reason", "spam")
    page_b.fill("#talk-report-text", "me escribe sin parar")
    shot(page_b, "talk-report-phone", PHONE)
    page_b.click("#talk-report button[type=submit]")
    page_b.wait_for_selector("#talk-status.ok:has-text('un moderador lo revisará')")
    assert table.reports.get().reason == "spam"


def test_at_four_seats_what_ana_writes_waits_for_the_hands_end(
    live_server, new_page, django_user_model
):
    from tests.conftest import PASSWORD

    ana, bruno = (
        django_user_model.objects.create_user(username=name, password=PASSWORD)
        for name in ("ana", "bruno")
    )
    table = services.table_create(
        creator=ana, seats=4, target=100, others=["garabato", "friend", "garabato"]
    )
    services.seat_join(token=Seat.objects.get(table=table, index=2).invite_token, user=bruno)
    base = live_server.url
    page_a, page_b = _at_the_table(new_page, base, table, "ana", "bruno")
    page_a.wait_for_selector("#talk-rule.held")
    assert "ni el momento" in page_a.inner_text("#talk-rule")

    _write(page_a, "tengo muchos seises")
    page_a.wait_for_selector("#talk-list .talk-message.pending")
    assert "llegará al acabar la mano" in page_a.inner_text("#talk-status")
    refresh(page_b)
    page_b.wait_for_selector("#talk-list .empty")
    page_b.wait_for_timeout(500)
    assert "tengo muchos seises" not in page_b.inner_text("#talk")
    shot(page_a, "talk-held-phone", PHONE)
    shot(page_a, "talk-held-desktop", DESKTOP)


def _play_until(table_id: int, done, rng: random.Random) -> Move:
    """Random legal plays through the services, each by whoever is to play (the passes
    follow by themselves, R16), until ``done(last move)``; returns that move."""
    while True:
        last = Move.objects.filter(table_id=table_id).order_by("-id").first()
        if last is not None and done(last):
            return last
        row = Table.objects.get(pk=table_id)
        play = rng.choice(view_for(services.match_of(row), row.turn_seat).legal_moves)
        services.move_play(
            table_id=table_id,
            user=Seat.objects.get(table=row, index=row.turn_seat).user,
            tile=str(play.tile),
            end=play.end,
            version=row.version,
            seat=row.turn_seat,
        )


def _followed(page) -> list[str]:
    """The talk's "tras la jugada …" markers, in the order of the messages."""
    page.wait_for_selector("#talk-list .talk-marker")
    texts = page.locator("#talk-list .talk-marker").all_text_contents()
    return [text for text in texts if text.startswith("tras la jugada")]


def test_the_move_a_message_followed_is_the_readers_own_in_the_second_person(
    live_server, new_page, alice, bob
):
    """seven_plus_seven, alice (seats 1 and 3) against bob (2 and 4): alice writes after
    bob's move and after her own play. Her markers read "(bob …)" and "(jugaste 6-4)", no
    hand named (no brackets within brackets); once the hand is over bob reads "(alice jugó
    6-4)"."""
    table = services.table_create(
        creator=alice, seats=4, target=150, others=["friend"], rules="seven_plus_seven"
    )
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    rng = random.Random(7)
    _play_until(table.pk, lambda move: move.seat in (1, 3), rng)
    talk_post(table_id=table.pk, user=alice, text="¿y ahora?")
    own = _play_until(table.pk, lambda move: move.seat in (0, 2) and move.kind == "play", rng)
    talk_post(table_id=table.pk, user=alice, text="toma ya")
    assert own.hand.number == 0 and own.hand.ended_at is None

    base = live_server.url
    [page_a] = _at_the_table(new_page, base, table, "alice")
    after_bob, after_own = _followed(page_a)
    bobs = r"bob ((salió con|jugó) \d-\d|pasó)"  # "salió con": his play led the hand
    assert re.fullmatch(rf"tras la jugada \d+ de la mano 1 \({bobs}\)", after_bob)
    assert after_own == f"tras la jugada {own.sequence + 1} de la mano 1 (jugaste {own.tile})"
    shot(page_a, "talk-own-move-phone", PHONE)
    shot(page_a, "talk-own-move-desktop", DESKTOP)

    ended = Hand.objects.filter(table=table, number=0).exclude(ended_at=None)
    _play_until(table.pk, lambda _move: ended.exists(), rng)
    [page_b] = _at_the_table(new_page, base, table, "bob")
    page_b.wait_for_selector("#talk-list .talk-message:not(.mine)")
    assert _followed(page_b)[1].endswith(f" (alice jugó {own.tile})")


def test_at_two_seats_talk_says_the_move_it_followed_and_a_lead_as_the_log_says_it(
    live_server, new_page, alice, bob
):
    """Talk at once (no partners) still says which move it followed; after the lead it
    reads "salió con 6-6" ("saliste con 6-6" for the one who led), as the log does. A tile
    name never wraps at its hyphen in the narrow panel (a span, the text unchanged)."""
    table = seat_friends(alice, [bob])
    rng = random.Random(5)
    lead = _play_until(table.pk, lambda _move: True, rng)
    talk_post(table_id=table.pk, user=alice, text="buena salida")
    later = _play_until(table.pk, lambda move: move.sequence > lead.sequence, rng)
    talk_post(table_id=table.pk, user=bob, text="ahí va")
    assert (lead.kind, lead.end) == ("play", None) and later.hand_id == lead.hand_id

    base = live_server.url
    page_a, page_b = _at_the_table(new_page, base, table, "alice", "bob")
    names = {0: "alice", 1: "bob"}
    for page, me in ((page_a, 0), (page_b, 1)):
        page.set_viewport_size(PHONE)
        after_lead, after_later = _followed(page)
        who = "saliste con" if lead.seat == me else f"{names[lead.seat]} salió con"
        assert after_lead == f"tras la jugada {lead.sequence + 1} de la mano 1 ({who} {lead.tile})"
        n = later.sequence + 1
        assert re.fullmatch(rf"tras la jugada {n} de la mano 1 \(.+\)", after_later)
        assert "salió" not in after_later and "saliste" not in after_later
        kept = page.locator("#talk-list .talk-marker .tile-name").first
        assert kept.text_content() == lead.tile  # the same characters: "6-6", not a look-alike
        assert kept.evaluate("node => getComputedStyle(node).whiteSpace") == "nowrap"
        assert page.locator("#log .tile-name").count() >= 1
    shot(page_a, "talk-two-seats-lead-phone", PHONE)
    shot(page_a, "talk-two-seats-lead-desktop", DESKTOP)


def test_talk_between_hands_and_after_the_match_says_where_it_was_written(
    live_server, new_page, alice, bob
):
    """A message written as hand 1 ended reads "al empezar la mano 2" (the next hand is
    dealt at once) and one written once the match was over "con la partida ya terminada",
    where it read "tras la jugada 14 de la mano 1 (…)", the last move before it."""
    table = seat_friends(alice, [bob])
    ended = Hand.objects.filter(table=table, number=0).exclude(ended_at=None)
    _play_until(table.pk, lambda _move: ended.exists(), random.Random(6))
    talk_post(table_id=table.pk, user=alice, text="otra mano")
    services.table_abandon(table_id=table.pk, user=alice)
    talk_post(table_id=table.pk, user=bob, text="bien jugado")

    [page] = _at_the_table(new_page, live_server.url, table, "alice")
    page.wait_for_selector("#talk-list .talk-marker")
    markers = page.locator("#talk-list .talk-marker").all_text_contents()
    assert markers == ["al empezar la mano 2", "con la partida ya terminada"]
    shot(page, "talk-between-hands-phone", PHONE)
    shot(page, "talk-between-hands-desktop", DESKTOP)
