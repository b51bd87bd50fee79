"""The replay says how each hand ended, in Chromium at 390x844 and 1280x800: after a hand's
last move one more step, "Mano 2 de 6 · fin de la mano", gives the table page's summary
of a hand's end through its code (static/js/table/summary.js) and words: "Mesa cerrada:
nadie podía jugar ni robar. Regla R18", the rule with its numbers ("Gana la cuenta más
baja (Regla R21): Nino, con 8, se lleva 37 puntos."), who scored, and each seat's count
("cuenta 8"); a domino alike, to alice in the second person ("Dominaste: te quedaste sin
fichas.", "Te anotas 23 puntos."). Before, "Robaste 5-5" was followed by "Reparto de la
mano 3" and the points jumped with nothing said. The replay's buttons look disabled where
they are (at the start, "« Mano anterior"), and the arrow keys' hint shows only where a
fine pointer is (not on a phone)."""

from __future__ import annotations

import contextlib

import pytest

from tables import services
from tests.support.browser import ARTIFACTS, BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.finished import quick_finished_table

pytestmark = BROWSER_MARKS


@pytest.fixture
def finished(alice):
    """alice against Nino, a match to 50 (its deals, fixed by this test's id, hold a
    blocked hand and dominoes: tests/support/seeds.py)."""
    return quick_finished_table([alice], ["nino"], 0, lambda **_: contextlib.nullcontext())


def _data(page) -> dict:
    return page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")


def _to_hand_end(page, data: dict, number: int) -> None:
    """From the deal of the first hand, step to hand ``number``'s last move and then one
    more, to its end."""
    for _ in range(number):
        page.keyboard.press("ArrowDown")
    last = len(data["hands"][number]["steps"]) - 1
    for _ in range(last):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay", "data-place") == f"{number}:{last}"
    assert page.is_hidden("#hand-end")  # the last move is still a move
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay", "data-place") == f"{number}:{last + 1}"


def _said_the_end(page, data: dict, number: int, names: list[str]) -> str:
    """The hand's end as the page shows it; checks the position line, the title, who
    scored and every seat's count (R19) against the hand's result."""
    result = data["hands"][number]["result"]
    hands = len(data["hands"])
    assert page.inner_text("#position") == f"Mano {number + 1} de {hands} · fin de la mano"
    assert page.inner_text("#action") == f"Fin de la mano {number + 1}"
    text = page.inner_text("#hand-end")
    winner, points = result["winners"][0], result["points"]
    scored = "Te anotas" if names[winner] == "tú" else f"{names[winner]} se anota"
    assert f"{scored} {points} puntos." in text, text
    counts = page.locator("#seats li .hand-count").all_inner_texts()
    assert counts == [f"cuenta {count}" for count in result["counts"]]
    return text


def test_a_hand_ends_on_a_step_that_says_how(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    data = _data(page)
    ends = [hand["result"]["end"] for hand in data["hands"]]
    assert "blocked" in ends and "domino" in ends, f"the deals changed: {ends}"

    blocked = ends.index("blocked")
    _to_hand_end(page, data, blocked)
    text = _said_the_end(page, data, blocked, ["tú", "Nino"])
    assert text.startswith("Mesa cerrada: nadie podía jugar ni robar. Regla R18"), text
    assert "Gana la cuenta más baja (Regla R21)" in text, text
    assert page.get_attribute("#hand-end a.rule >> nth=0", "href") == "/reglas/#R18"
    shot(page, "replay-hand-end-blocked-phone", PHONE)
    shot(page, "replay-hand-end-blocked-desktop", DESKTOP)
    page.keyboard.press("ArrowRight")  # then the next deal, and back to the end
    assert page.inner_text("#action") == f"Reparto de la mano {blocked + 2}."
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#action") == f"Fin de la mano {blocked + 1}"

    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    mine = next(i for i, hand in enumerate(data["hands"]) if hand["result"]["winners"] == [0])
    assert data["hands"][mine]["result"]["end"] == "domino", "alice's hand: a domino here"
    _to_hand_end(page, data, mine)
    text = _said_the_end(page, data, mine, ["tú", "Nino"])
    assert text.startswith("Dominaste: te quedaste sin fichas. Regla R17"), text
    assert "Cuentan las fichas del rival (Regla R20)" in text, text  # one rival
    shot(page, "replay-hand-end-domino-phone", PHONE)

    link, _ = services.replay_publish(table_id=finished.pk, user=alice)
    visitor = new_page()  # signed out: alice by name
    visitor.goto(f"{base}/partida/{link.token}/")
    visitor.wait_for_selector("#seats li")
    _to_hand_end(visitor, data, mine)
    text = _said_the_end(visitor, data, mine, ["alice", "Nino"])
    assert text.startswith("alice dominó: se quedó sin fichas."), text


def test_disabled_buttons_look_disabled_and_the_keys_hint_needs_a_keyboard(
    live_server, new_page, browser, alice, finished
):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    look = (
        "id => { const s = getComputedStyle(document.getElementById(id));"
        " return [s.opacity, s.cursor]; }"
    )
    for disabled in ("prev-hand", "prev-move"):
        assert page.is_disabled(f"#{disabled}")
        opacity, cursor = page.evaluate(look, disabled)
        assert float(opacity) < 0.6 and cursor == "not-allowed", (disabled, opacity, cursor)
    assert page.evaluate(look, "next-move") == ["1", "pointer"]
    assert page.is_visible(".keys-hint")  # a mouse and a keyboard

    link, _ = services.replay_publish(table_id=finished.pk, user=alice)
    phone = browser.new_context(viewport=PHONE, locale="es-ES", is_mobile=True, has_touch=True)
    try:
        touch = phone.new_page()
        touch.goto(f"{base}/partida/{link.token}/")
        touch.wait_for_selector("#seats li")
        assert touch.evaluate("matchMedia('(hover: hover) and (pointer: fine)').matches") is False
        assert touch.is_hidden(".keys-hint")
        # The viewport only: a full-page capture re-lays the page out as a desktop would.
        touch.screenshot(path=str(ARTIFACTS / "replay-keys-hint-touch-phone.png"))
    finally:
        phone.close()


# Whether any word of each element ``selector`` finds is split across two lines (words
# matching ``skip``, a regular expression, left out); and the element's width.
_WORDS_LAID_OUT = """([selector, skip]) => [...document.querySelectorAll(selector)].map(name => {
  const text = name.innerText;
  const skipped = skip ? new RegExp(skip) : null;
  const range = document.createRange();
  const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  const split = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/\\S+/g)) {
      if (skipped && skipped.test(word[0])) continue;
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) split.push(word[0]);
    }
  }
  return { text, width: name.getBoundingClientRect().width, split };
})"""
# How far the rows' parts stick out of the seats' list, or the page out of the window, px.
_STICKS_OUT = """() => {
  const list = document.getElementById("seats");
  const parts = [...list.querySelectorAll("li *")].map(n => n.getBoundingClientRect().right);
  return Math.max(document.documentElement.scrollWidth - window.innerWidth,
                  Math.max(...parts) - list.getBoundingClientRect().right);
}"""


@pytest.mark.parametrize(
    ("others", "names"),
    [
        (
            ["friend", "nino", "garabato"],
            ["alice", "bob (tú)", "Nino (bot)", "Garabato (tu pareja, bot)"],
        ),
        (["friend", "nino"], ["alice", "bob (tú)", "Nino (bot)"]),
    ],
    ids=["4-seats", "3-seats"],
)
def test_the_names_keep_their_words_whole_at_a_hand_end_on_a_phone(
    live_server, new_page, alice, bob, others, names
):
    """At 390 px, on the step after hand 1's last move (each seat's row gets its count,
    "7 fichas · cuenta 21"), the name column kept 25 px at 4 seats (44 at 3) and the names
    broke letter by letter ("ali/ce", "Ga/ra/ba/to"): now they break at spaces only."""
    finished = quick_finished_table(
        [alice, bob], others, 3, lambda **_: contextlib.nullcontext()
    )
    page = signed_in(new_page, live_server.url, "bob")
    page.goto(f"{live_server.url}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    _to_hand_end(page, _data(page), 0)
    seats = len(names)
    for viewport, label in ((PHONE, "phone"), ({"width": 360, "height": 800}, "narrow")):
        shot(page, f"replay-hand-end-{seats}-seats-{label}", viewport)
        laid_out = page.evaluate(_WORDS_LAID_OUT, ["#seats li .name", None])
        assert [name["text"] for name in laid_out] == names
        for name in laid_out:
            assert not name["split"] and name["width"] >= 80, (viewport, name)
        assert page.evaluate(_STICKS_OUT) <= 0, viewport
    shot(page, f"replay-hand-end-{seats}-seats-desktop", DESKTOP)


# How far the seed box's parts stick out of it, or the page out of the window, px.
_SEED_STICKS_OUT = """() => {
  const box = document.querySelector("section.seed");
  const parts = [...box.querySelectorAll("*")].map(n => n.getBoundingClientRect().right);
  return Math.max(document.documentElement.scrollWidth - window.innerWidth,
                  Math.max(...parts) - box.getBoundingClientRect().right);
}"""


def test_the_shuffle_check_keeps_its_words_whole_on_a_narrow_phone(
    live_server, new_page, finished
):
    """At 360 px, at a hand's end, the seed box broke everywhere to fit the seed and its
    hash, and the sentence under them too ("la semi/lla da su hash y reparte estas
    ficha/s (R6)"): now only the seed and the hash break anywhere, the words at spaces."""
    page = signed_in(new_page, live_server.url, "alice")
    page.goto(f"{live_server.url}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    _to_hand_end(page, _data(page), 0)
    for viewport, label in (({"width": 360, "height": 800}, "narrow"), (PHONE, "phone")):
        shot(page, f"replay-seed-box-{label}", viewport)
        laid_out = page.evaluate(_WORDS_LAID_OUT, ["section.seed p", "^[0-9a-f]{16,}$"])
        texts = [p["text"] for p in laid_out]
        assert texts[0].startswith("Semilla: ") and texts[1].startswith("SHA-256 publicado: ")
        assert texts[2] == (
            "✓ El barajado se comprobó: la semilla da su hash y reparte estas fichas (R6)."
        ), texts
        for paragraph in laid_out:
            assert not paragraph["split"], (viewport, paragraph)
        assert page.evaluate(_SEED_STICKS_OUT) <= 0, viewport
    shot(page, "replay-seed-box-desktop", DESKTOP)
