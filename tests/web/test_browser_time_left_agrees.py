"""The time left of a turn is written in two places that must read alike: the table page
counts it down in the browser (``static/js/table/state.js``, ``timeLeftSentence``) and
"Mis mesas" writes it on the server (``tables.move_time.time_left_sentence``), the page
adding what the time is for ("para jugar"). This test
runs the page's own function in Chromium for durations on every branch (under a minute,
minutes, hours and minutes, one day, several days) and compares each sentence with the
server's, in Spanish and in English: a change to one side alone fails here."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables import services
from tables.move_time import time_left_sentence
from tests.support.browser import BROWSER_MARKS, signed_in

pytestmark = BROWSER_MARKS

#: Seconds until the deadline, each 30 s inside its minute so that the second the browser
#: takes to evaluate cannot move it across a boundary.
DURATIONS = (
    20,
    60 + 30,
    59 * 60 + 30,
    60 * 60 + 30,
    5 * 3600 + 7 * 60 + 30,
    23 * 3600 + 59 * 60 + 30,
    24 * 3600 + 30,
    47 * 3600 + 30,
    2 * 86400 + 3 * 3600 + 30,
    7 * 86400 - 30,
)

_BROWSER_SENTENCES = """async (durations) => {
  const entry = document.querySelector('script[type=module][src*="table.js"]').src;
  const state = await import(new URL("table/state.js", entry).href);
  const now = Date.now();
  return durations.map((s) => state.timeLeftSentence(new Date(now + s * 1000).toISOString()));
}"""


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_table_page_and_my_tables_write_the_time_left_alike(
    live_server, new_page, alice, language
):
    table = services.table_create(creator=alice, seats=2, target=100, others=["nino"])
    page = signed_in(new_page, live_server.url, "alice")
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#players li.seat")

    in_browser = page.evaluate(_BROWSER_SENTENCES, list(DURATIONS))

    with translation.override(language):
        on_server = [time_left_sentence(seconds) for seconds in DURATIONS]
    # The table page adds what the time is for ("... para jugar."): the rest is the same.
    pairs = list(zip(in_browser, on_server, strict=True))
    assert [sentence[: len(said)] for sentence, said in pairs] == on_server
    assert all(sentence[len(said)] == " " for sentence, said in pairs)
    assert len(set(on_server)) == len(DURATIONS)  # every branch wrote its own sentence
