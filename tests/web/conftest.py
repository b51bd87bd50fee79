"""Helpers for the page tests: tables made through the services, as the pages make them."""

from __future__ import annotations

import time

import pytest

from tests.support.browser import ARGS, CHROMIUM, PHONE
from tests.support.pages import seat_friends


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
    # A page's polls (the table, its talk) may still be on their way to the live server
    # when the test ends; one served during the database flush that follows can deadlock
    # it (seen once under -n 2: TRUNCATE against a talk read). Leave every page first, so
    # nothing new is sent, and give what is in flight its few milliseconds to finish.
    for context in contexts:
        for page in context.pages:
            page.goto("about:blank")
    if contexts:
        time.sleep(0.3)
    for context in contexts:
        context.close()


@pytest.fixture
def two_seat_table(alice, bob):
    return seat_friends(alice, [bob])
