"""The table page as a screen reader meets it, in Chromium (DOM assertions): the turn's
coming is said ("Te toca", in a live region, and before the page's title: "Te toca ·
Mesa 12 · Dominó"); the lead hint is text beside the line, not inside its role=img,
which hides what it holds; the scrollable move log can be reached with the keyboard
(tabindex=0, named by its title: axe's scrollable-region-focusable); each "Reportar" of
the talk names the message it reports; and the talk's list, a live region, changes only
when a message arrives (a poll that brings nothing new leaves it alone, a new message is
added at its end)."""

from __future__ import annotations

import pytest

from moderation.services import talk_post
from tables import selectors, services
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, signed_in
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def _table_ana_leads(ana):
    for _ in range(40):
        table = services.table_create(creator=ana, seats=2, target=100, others=["nino"])
        fresh, seat = services.table_for_user(table.pk, ana)
        view = selectors.table_view_for_user(fresh, seat, ana)
        if view["your_turn"] and not view["game"]["line"]:
            return table
    raise AssertionError("ana led no first hand")


def test_the_turn_is_announced_the_lead_hint_is_read_and_the_log_is_focusable(
    live_server, new_page, ana
):
    table = _table_ana_leads(ana)
    page = signed_in(new_page, live_server.url, "ana")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#table.my-turn")
    assert page.title() == f"Te toca · Mesa {table.pk} · Dominó"
    # The hint is outside the picture: a role=img's content is not read.
    hint = page.locator("#lead-hint")
    assert hint.is_visible() and "Sales tú" in hint.inner_text()
    assert page.evaluate("document.getElementById('lead-hint').closest('[role=img]')") is None
    assert page.evaluate("document.getElementById('line').textContent") == ""
    # Opening the page on my turn: the status line says it; the live region stays quiet.
    assert page.inner_text("#turn-announce") == ""
    log = page.locator("#log")
    assert log.get_attribute("tabindex") == "0"
    assert log.get_attribute("aria-labelledby") == "log-title"
    log.focus()
    assert page.evaluate("document.activeElement.id") == "log"

    before = int(page.get_attribute("#table", "data-version"))
    page.locator("#hand button.tile-btn.playable:not([disabled])").first.click()
    # Nino answers; the turn comes back to ana at a later version: said once.
    page.wait_for_function(
        """(before) => Number(document.getElementById("table").dataset.version) > before
          && document.getElementById("table").classList.contains("my-turn")
          && document.getElementById("turn-announce").textContent === "Te toca" """,
        arg=before,
        timeout=20_000,
    )
    assert page.title() == f"Te toca · Mesa {table.pk} · Dominó"


def test_reportar_names_its_message_and_the_talk_changes_only_when_one_arrives(
    live_server, new_page, alice, bob
):
    table = seat_friends(alice, [bob])
    talk_post(table_id=table.pk, user=bob, text="Suerte en la partida de hoy, nos vemos")
    page = signed_in(new_page, live_server.url, "alice")
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-message")
    report = page.locator("#talk-list .talk-message button:has-text('Reportar')")
    label = report.get_attribute("aria-label")
    assert label == "Reportar el mensaje de bob: «Suerte en la partida de hoy, nos vemos»", label
    page.evaluate(
        """() => {
          window.talkChanges = 0;
          document.getElementById("talk-list").firstElementChild.dataset.first = "kept";
          new MutationObserver((records) => { window.talkChanges += records.length; })
            .observe(document.getElementById("talk-list"),
                     {childList: true, subtree: true, characterData: true});
        }"""
    )
    page.wait_for_timeout(7_000)  # the talk polls every 6 s: at least one answer came
    assert page.evaluate("window.talkChanges") == 0
    talk_post(table_id=table.pk, user=bob, text="Gracias")
    page.wait_for_function(
        "() => document.querySelectorAll('#talk-list .talk-message').length == 2", timeout=15_000
    )
    assert page.locator("#talk-list [data-first=kept]").count() == 1  # added, not redrawn
