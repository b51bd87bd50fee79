"""Helpers for the page tests: tables made through the services, as the pages make them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dominoes import match_from_dict
from tables import services
from tables.models import Seat, Table
from tests.support.browser import ARGS, CHROMIUM, PHONE

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
TILE_TOKEN = re.compile(r"(?<![\d-])[0-6]-[0-6](?![\d-])")


def seat_friends(creator, friends, *, target: int = 100) -> Table:
    """A table of ``1 + len(friends)`` human seats, every invite taken: the match starts."""
    table = services.table_create(
        creator=creator, seats=1 + len(friends), target=target, others=["friend"] * len(friends)
    )
    for index, friend in enumerate(friends, start=1):
        token = Seat.objects.get(table=table, index=index).invite_token
        services.seat_join(token=token, user=friend)
    table.refresh_from_db()
    return table


def hidden_from(table: Table, seat: int) -> set[str]:
    """The tiles ``seat`` must not learn while the hand is on (R31): every other seat's
    tiles and the stock still face down, straight from the engine state."""
    hand = match_from_dict(table.state).hand
    hidden = {str(tile) for tile in hand.stock[hand.drawn :]}
    for other, tiles in enumerate(hand.holdings):
        if other != seat:
            hidden |= {str(tile) for tile in tiles}
    return hidden


def own_tiles(table: Table, seat: int) -> set[str]:
    return {str(tile) for tile in match_from_dict(table.state).hand.holdings[seat]}


def tile_tokens(html: str) -> set[str]:
    """Every tile name ("6-4") in a page; dates ("2026-04-01") are not tile names."""
    return set(TILE_TOKEN.findall(html))


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per test module (skipped without
    Playwright). Playwright's sync API runs an event loop in this thread, so Django's
    async-safety check is told that the test's own ORM calls (fixtures, assertions) are
    fine: while this module's browser runs, never process-wide (the deploy check refuses
    the variable). Module scope: set before the browser starts."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            yield browser
            browser.close()


@pytest.fixture
def new_page(browser):
    """``new_page(viewport=PHONE)``: a page in a fresh context (Spanish, 15 s timeouts)
    that accepts every dialog."""
    contexts = []

    def make(viewport=PHONE):
        context = browser.new_context(viewport=viewport, locale="es-ES")
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def two_seat_table(alice, bob):
    return seat_friends(alice, [bob])


def table_page_script() -> str:
    """The table page's script: its entry module ``static/js/table.js`` and every module
    under ``static/js/table/`` it is made of, as one text."""
    modules = [STATIC_JS / "table.js", *sorted((STATIC_JS / "table").glob("*.js"))]
    return "\n".join(module.read_text(encoding="utf-8") for module in modules)
