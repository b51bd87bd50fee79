"""A talk message draws only inside its own box. The server now refuses marks stacked on
one letter ("zalgo") and hundreds of lines (tests/moderation/test_talk_text.py), but
messages stored before that, or a font that draws an accent taller than its line, must not
cover the names, the "Reportar" links or the other messages: the text is clipped to its
own paragraph, and a message to its own box, with a bounded height; real accents are not
cut off. The admin's list of a table's talk clips them too. Screenshots at 390x844 and
1280x800 go to artifacts/."""

from __future__ import annotations

import base64
import math

from django.utils import timezone

from moderation.models import TalkMessage
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS

ZALGO = "e" + "\u0301" * 299
TALL = "." + "\n" * 250 + "."
#: Real text whose marks reach above and below its letters: Vietnamese capitals with two
#: marks each, Thai with a vowel and a tone mark over one letter, pointed Hebrew.
HIGH_AND_LOW = "ẤỞỴỆẶ ẫ ỷ\nปั้น ญู\n\u05e9\u05c1\u05b4\u0596 ÅÉÑ"
ITEMS = "#talk-list .talk-message"
#: Gives the zalgo message's text a plain "é" in its place: what the page would show
#: around it if the marks drew nothing outside its paragraph.
PLAIN = "node => { node.textContent = 'e\\u0301'; }"
#: Lets the message and its text draw outside their boxes, as before the clipping.
UNCLIPPED = """node => {
  node.style.overflow = node.querySelector(".talk-text").style.overflow = "visible";
}"""
#: How many pixels of two screenshots differ by more than a shade of anti-aliasing.
DIFFERENT_PIXELS = """async ([first, second]) => {
  const pixels = async (png) => {
    const image = new Image();
    image.src = "data:image/png;base64," + png;
    await image.decode();
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [image.width, image.height];
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height).data;
  };
  const [a, b] = [await pixels(first), await pixels(second)];
  if (a.length !== b.length) return -1;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if ([0, 1, 2].some((c) => Math.abs(a[i + c] - b[i + c]) > 24)) count += 1;
  }
  return count;
}"""


def _stored(table, author, texts: list[str]) -> None:
    """``texts`` as messages already in the talk, as if written before the server refused
    them, all at one minute so that their heads read alike."""
    for text in texts:
        TalkMessage.objects.create(table=table, author=author, seat=0, text=text)
    TalkMessage.objects.filter(table=table).update(created_at=timezone.now())


def _inside(page, locator) -> bytes:
    """A screenshot of what is drawn inside ``locator``'s box, its edges rounded inwards
    (a box at y = 10.4 starts at 11): the pixels it shares with its neighbours are not
    its own."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    left, top = math.ceil(box["x"]), math.ceil(box["y"])
    right = math.floor(box["x"] + box["width"])
    bottom = math.floor(box["y"] + box["height"])
    return page.screenshot(
        clip={"x": left, "y": top, "width": right - left, "height": bottom - top}
    )


def _around(page, index: int) -> dict[str, bytes]:
    """Screenshots of what surrounds the message at ``index``: its head (the name), its
    links ("Reportar", "Silenciar a ...") and the messages before and after it."""
    message = page.locator(ITEMS).nth(index)
    return {
        "head": _inside(page, message.locator(".talk-head")),
        "links": _inside(page, message.locator(".talk-actions")),
        "before": _inside(page, page.locator(ITEMS).nth(index - 1)),
        "after": _inside(page, page.locator(ITEMS).nth(index + 1)),
    }


def _different_pixels(page, first: bytes, second: bytes) -> int:
    """Compared in a blank page of the same browser (no Pillow here; no page CSP)."""
    blank = page.context.new_page()
    try:
        pngs = [base64.b64encode(png).decode() for png in (first, second)]
        return blank.evaluate(DIFFERENT_PIXELS, pngs)
    finally:
        blank.close()


def _bobs_talk(new_page, base: str, table, texts: list[str]):
    """bob's table page (on a phone) with alice's ``texts`` in the talk."""
    _stored(table, table.seat_set.get(index=0).user, texts)
    page = signed_in(new_page, base, "bob")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.locator(ITEMS).nth(len(texts) - 1).wait_for()
    return page


def test_stacked_marks_draw_over_no_name_link_or_message(live_server, new_page, alice, bob):
    page = _bobs_talk(
        new_page, live_server.url, seat_friends(alice, [bob]), ["antes", ZALGO, "después"]
    )
    shot(page, "talk-zalgo-desktop", DESKTOP)
    shot(page, "talk-zalgo-phone", PHONE)

    drawn = _around(page, 1)
    page.locator(ITEMS).nth(1).locator(".talk-text").evaluate(PLAIN)
    plain = _around(page, 1)
    for part in ("head", "links", "before", "after"):
        changed = _different_pixels(page, drawn[part], plain[part])
        assert changed == 0, f"the marks draw over {changed} pixels of the message's {part}"


def test_a_message_of_hundreds_of_lines_stays_short(live_server, new_page, alice, bob):
    page = _bobs_talk(
        new_page, live_server.url, seat_friends(alice, [bob]), ["antes", TALL, "después"]
    )
    text = page.locator(ITEMS).nth(1).locator(".talk-text")
    line = text.evaluate("node => parseFloat(getComputedStyle(node).lineHeight)")
    assert text.bounding_box()["height"] <= 24 * line  # its 251 lines would be 6,000 px
    page.locator(ITEMS).nth(1).locator(".talk-actions").scroll_into_view_if_needed()
    shot(page, "talk-tall-phone", PHONE)
    shot(page, "talk-tall-desktop", DESKTOP)


def test_real_accents_are_not_cut_off(live_server, new_page, alice, bob):
    page = _bobs_talk(new_page, live_server.url, seat_friends(alice, [bob]), [HIGH_AND_LOW])
    message = page.locator(ITEMS).first
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.reload()
        message.wait_for()
        clipped = _inside(page, message)
        message.evaluate(UNCLIPPED)
        assert _different_pixels(page, clipped, _inside(page, message)) == 0, viewport
    shot(page, "talk-accents-desktop", DESKTOP)


def test_the_admins_talk_clips_stacked_marks_too(live_server, new_page, alice, bob):
    """The table's admin page lists its talk (``.mod-talk``, templates/admin/moderation/):
    an old message of stacked marks drew over the lines around it and its own name."""
    table = seat_friends(alice, [bob])
    _stored(table, alice, ["antes", ZALGO, "después"])
    type(alice).objects.create_superuser(username="root", password=PASSWORD)
    page = signed_in(new_page, live_server.url, "root")
    page.goto(f"{live_server.url}/admin/tables/table/{table.pk}/change/")
    lines = page.locator(".mod-talk li")
    lines.nth(2).wait_for()
    shot(page, "admin-talk-zalgo-desktop", DESKTOP)
    shot(page, "admin-talk-zalgo-phone", PHONE)

    def around() -> dict[str, bytes]:
        return {
            "name": _inside(page, lines.nth(1).locator("strong")),
            "before": _inside(page, lines.nth(0)),
            "after": _inside(page, lines.nth(2)),
        }

    drawn = around()
    lines.nth(1).locator(".mod-talk-text").evaluate(PLAIN)
    plain = around()
    for part in drawn:
        changed = _different_pixels(page, drawn[part], plain[part])
        assert changed == 0, f"the marks draw over {changed} pixels of the {part}"
