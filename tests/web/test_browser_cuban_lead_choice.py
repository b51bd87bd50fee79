"""Cuban: when alice's pair leads a hand and her partner is a bot, she chooses who leads
(``transitions.lead_chooser``). The table page says so in words ("Salen ustedes: elige
quién sale...") and offers a button, "Que salga <partner>", that sends the pass before
the lead (``{"action": "pass"}``) through the page's own move path: the bot then leads.
Leading a tile herself works as before. At 390x844 the button and every tile of her
hand are in the viewport without scrolling. Screenshots of the choice at 390x844 and
1280x800 go to artifacts/cuban-lead-choice-*.png."""

from __future__ import annotations

import random

import pytest

from tables import selectors, services
from tables.models import Move, Table
from tests.support.browser import (
    BROWSER_MARKS,
    DESKTOP,
    PHONE,
    shown_boxes,
    signed_in,
    viewport_screenshot,
)

pytestmark = BROWSER_MARKS

#: The status line no longer offers the choice (someone led).
CHOICE_GONE = "() => !document.getElementById('status-line').textContent.includes('elige quién')"


def _lead_choice(alice) -> tuple[Table, dict]:
    """A cuban table (alice at seat 0, her bot partner at seat 2) where alice has played
    random legal moves through the services (the bots answer) until a hand her pair
    leads begins: the table and her view then."""
    rng = random.Random(20)
    for _ in range(8):
        table = services.table_create(
            creator=alice, rules="cuban", seats=4, others=["nino", "garabato", "nino"]
        )
        for _ in range(400):
            table, seat = services.table_for_user(table.pk, alice)
            view = selectors.table_view_for_user(table, seat, alice)
            game = view["game"]
            if view["status"] != "playing":
                break
            if game["hand_number"] >= 1 and not game["line"] and game.get("lead_seats"):
                return table, view
            move = rng.choice(game["legal_moves"])
            services.move_play(
                table_id=table.pk,
                user=alice,
                version=view["version"],
                tile=move["tile"],
                end=move["end"],
            )
    raise AssertionError("no hand began with alice's pair to lead")


def _open_at_the_choice(page, base: str, table: Table) -> None:
    """The table page, past the ended hand's summary ("Siguiente mano"), at the lead."""
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#players li.seat")
    next_hand = page.get_by_role("button", name="Siguiente mano")
    if next_hand.count():
        next_hand.click()
    page.locator("#status-line", has_text="Salen ustedes").wait_for()


def _first_move(table: Table, hand_number: int) -> Move:
    return Move.objects.filter(table=table, hand__number=hand_number).order_by("sequence").first()


@pytest.mark.parametrize("choice", ["partner", "alice"])
def test_alice_chooses_who_leads_for_her_pair(live_server, new_page, alice, choice):
    table, view = _lead_choice(alice)
    game = view["game"]
    assert sorted(game["lead_seats"]) == [0, 2] and view["your_turn"]
    partner = next(p["name"] for p in view["players"] if p["seat"] == 2)
    page = signed_in(new_page, live_server.url, "alice")
    _open_at_the_choice(page, live_server.url, table)

    status = page.inner_text("#status-line")
    assert "Salen ustedes: elige quién sale." in status, status
    assert f"o deja que salga tu compañero ({partner})." in status, status
    button = page.locator("#lead-choice button")
    assert button.inner_text() == f"Que salga {partner}"
    assert page.locator("#line .placed").count() == 0  # nobody has led yet
    hint = page.inner_text("#lead-hint")
    assert hint == f"Sal tú con una de tus fichas marcadas, o deja que salga {partner}.", hint

    viewport_screenshot(page, f"cuban-lead-choice-{choice}-phone", PHONE)
    tiles, buttons = shown_boxes(page, "#hand .tile-btn"), shown_boxes(page, "#lead-choice button")
    assert len(buttons) == 1 and len(tiles) == len(game["tiles"])
    out = [box for box in tiles + buttons if not box["inside"]]
    assert not out, f"out of reach at 390x844: {out}"
    viewport_screenshot(page, f"cuban-lead-choice-{choice}-desktop", DESKTOP)
    assert all(box["inside"] for box in shown_boxes(page, "#lead-choice button"))
    page.set_viewport_size(PHONE)

    if choice == "partner":
        button.click()
    else:
        page.click("#hand .tile-btn.playable >> nth=0")
    page.wait_for_selector("#line .placed")
    led = _first_move(table, game["hand_number"])
    assert (led.seat, led.kind, led.automatic) == ((2 if choice == "partner" else 0), "play", False)
    shown = page.get_attribute("#line", "aria-label")  # "La fila: 6-4, 4-4" (line_label)
    a, b = led.tile.split("-")
    assert f"{a}-{b}" in shown or f"{b}-{a}" in shown, (led.tile, shown)
    log = page.inner_text("#log")
    assert (partner if choice == "partner" else "Saliste") in log, log
    page.wait_for_function(CHOICE_GONE)
    assert page.locator("#lead-choice").is_hidden()
