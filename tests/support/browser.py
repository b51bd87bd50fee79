"""What the browser tests share: Debian's Chromium and how it is started, the screen sizes,
and the steps a player takes (sign in, create a table, play a turn). The ``browser`` and
``new_page`` fixtures are in ``tests/web/conftest.py``; a browser test module sets
``pytestmark = BROWSER_MARKS``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import PASSWORD

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not shutil.which(CHROMIUM), reason="needs Chromium: apt-get install -y chromium"
    ),
]


def shot(page, name: str, viewport=None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    if viewport:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


#: The shown elements a selector matches, as boxes (px) with whether each lies wholly
#: inside the viewport.
SHOWN_BOXES = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.offsetParent)
  .map((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.left >= 0 && r.right <= window.innerWidth
      && r.top >= 0 && r.bottom <= window.innerHeight;
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, inside};
  })"""


def view_at_top(page, viewport: dict) -> None:
    """``page`` at ``viewport`` (``{"width", "height"}``, px) scrolled to its top: what a
    player sees on opening it, without scrolling (a tray fixed to the foot included)."""
    page.set_viewport_size(viewport)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)


def viewport_screenshot(page, name: str, viewport: dict) -> None:
    """artifacts/``name``.png: ``page`` as seen at ``viewport`` without scrolling."""
    ARTIFACTS.mkdir(exist_ok=True)
    view_at_top(page, viewport)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def shown_boxes(page, selector: str) -> list[dict]:
    """The boxes (px: ``left``, ``right``, ``top``, ``bottom``) of the shown elements
    ``selector`` matches, in document order, each with ``inside``: whether it lies wholly
    inside the viewport as the page is scrolled now."""
    return page.evaluate(SHOWN_BOXES, selector)


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{base}/")


def signed_in(new_page, base: str, username: str):
    """A fresh page with ``username`` signed in."""
    page = new_page()
    log_in(page, base, username)
    return page


def open_create_form(page, base: str, rules: str) -> None:
    """The create-table form with the rule profile ``rules`` chosen."""
    page.goto(f"{base}/mesas/nueva/")
    page.select_option("#id_rules", rules)


def create_table(page, base: str, seats: int, target: int, others: list[str]) -> int:
    page.goto(f"{base}/mesas/nueva/")
    page.check(f"input[name=seats][value='{seats}']")
    page.check(f"input[name=target][value='{target}']")
    for index, kind in enumerate(others, start=1):
        page.select_option(f"#id_seat_{index}", kind)
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    return int(re.search(r"/mesas/(\d+)/$", page.url).group(1))


def version(page) -> int:
    return int(page.get_attribute("#table", "data-version"))


def wait_for_version(
    page, *, above: int | None = None, at_least: int | None = None, or_refusal: bool = False
) -> None:
    """Wait until the table page shows a version above ``above`` (or at least
    ``at_least``), or with ``or_refusal`` until it shows a refusal (#message.error).

    The predicate is a function, not a string expression: Playwright evaluates a string
    with ``eval``, which the Content-Security-Policy (script-src 'self') refuses."""
    least = above + 1 if above is not None else at_least
    page.wait_for_function(
        """([least, orRefusal]) =>
          Number(document.getElementById("table").dataset.version) >= least
          || (orRefusal && document.querySelector("#message.error") !== null)""",
        arg=[least, or_refusal],
    )


def refresh(page) -> None:
    """Ask the page to poll now (it polls every few seconds, and at once when shown)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def play_a_turn(page, *, keyboard: bool = False, next_hand: bool = True) -> bool:
    """If it is this page's turn, click a highlighted tile (and an end when asked) and wait
    for the table to move on. Returns False when it was not this page's turn. With
    ``keyboard`` the tile and the end are chosen with Tab/Enter instead of clicks. An
    ended hand held on screen is let go first ("Siguiente mano"), unless ``next_hand``
    is false."""
    button = page.locator("#last-hand button.next-hand")
    if next_hand and button.count():
        button.click()
    if not page.locator("#table.my-turn").count():
        return False
    tiles = page.locator("#hand button.tile-btn.playable:not([disabled])")
    if not tiles.count():
        return False
    before = version(page)
    if keyboard:
        tiles.first.focus()
        page.keyboard.press("Enter")
    else:
        tiles.first.click()
    if page.locator("#end-choice").is_visible():
        if not (ARTIFACTS / "end-choice-phone.png").exists():
            shot(page, "end-choice-phone")
        if keyboard:
            page.keyboard.press("Enter")  # focus moved to the first end
        else:
            page.locator("#end-choice .end-btn").last.click()
    # The table moves on, or the page shows a refusal (a busy SQLite test database can
    # refuse a write): then the player simply tries again, as a person would.
    wait_for_version(page, above=before, or_refusal=True)
    return True


def shown_scores(page) -> list[int]:
    return [
        int(v)
        for v in page.locator("#scoreboard .score").evaluate_all(
            "els => els.map(e => e.dataset.score)"
        )
    ]
