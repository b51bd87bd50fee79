"""The signed-out home page (the sign-in page with its welcome), in Chromium at phone and
desktop size: the welcome's sentence does not repeat the title, the welcome and the
sign-in form are two cards apart, and a ``<button>`` ("Entrar") reads with the same weight
as a link drawn as a button ("Crear cuenta") beside it."""

from __future__ import annotations

import pytest

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE

pytestmark = BROWSER_MARKS


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_welcome_reads_once_and_its_actions_alike(live_server, new_page, viewport):
    page = new_page(viewport)
    page.goto(f"{live_server.url}/")
    title = page.inner_text("#welcome-title").strip()
    intro = page.inner_text(".welcome .intro").strip()
    assert not intro.startswith(title), intro
    gap = page.evaluate(
        """() => {
          const welcome = document.querySelector('.welcome').getBoundingClientRect();
          const form = document.querySelector('.welcome + .card').getBoundingClientRect();
          return form.top - welcome.bottom;
        }"""
    )
    assert gap >= 8, gap
    weights = page.evaluate(
        """() => [...document.querySelectorAll('form .actions button, form .actions a.button')]
          .map((el) => getComputedStyle(el).fontWeight)"""
    )
    assert len(weights) == 2 and len(set(weights)) == 1, weights
