"""The log's draw lines in Chromium, through the table page's own scripts (``logGroups``
and ``said`` of static/js/table/log.js; talk.js says the move a message followed with
``said``): a seat's draws read as one counted line, "Nino robó 1 ficha", "Nino robó 3
fichas", the reader's own "Robaste 1 ficha (5-1)", "Robaste 3 fichas (5-1, 4-0, 2-2)",
in Spanish and English. The words are counted (tables/plurals.py, ``counted`` in
table/dom.js) where they were two keys for each person."""

from __future__ import annotations

import pytest
from django.conf import settings

from tables import services
from tests.support.browser import BROWSER_MARKS, signed_in

pytestmark = BROWSER_MARKS

#: The log's lines for one and three draws by another seat, then by the reader's (who sees
#: the tiles drawn, R31), and the talk's inline form of one draw by each.
LINES = """async ([mine, other]) => {
  const script = document.querySelector("script[type=module][src*='table']");
  const { logGroups, said } = await import(new URL("table/log.js", script.src).href);
  const draws = (seat, tiles) => tiles.map((tile) => ({ kind: "draw", seat, tile }));
  const lines = (entries) => logGroups(entries).map((group) => group.text);
  return [
    ...lines(draws(other, [null])), ...lines(draws(other, [null, null, null])),
    ...lines(draws(mine, ["5-1"])), ...lines(draws(mine, ["5-1", "4-0", "2-2"])),
    said("log_draws", other, { n: 1 }, { inline: true }),
    said("log_draws", mine, { n: 1 }, { inline: true }),
  ];
}"""

SPANISH = [
    "Nino robó 1 ficha",
    "Nino robó 3 fichas",
    "Robaste 1 ficha (5-1)",
    "Robaste 3 fichas (5-1, 4-0, 2-2)",
    "Nino robó 1 ficha",
    "robaste 1 ficha",
]
ENGLISH = [
    "Nino drew 1 tile",
    "Nino drew 3 tiles",
    "You drew 1 tile (5-1)",
    "You drew 3 tiles (5-1, 4-0, 2-2)",
    "Nino drew 1 tile",
    "you drew 1 tile",
]


@pytest.mark.parametrize(("language", "expected"), [("es", SPANISH), ("en", ENGLISH)])
def test_one_and_three_tiles_drawn_read_right_in_both_persons(
    live_server, new_page, alice, language, expected
):
    base = live_server.url
    table = services.table_create(creator=alice, seats=2, target=100, others=["nino"])
    page = signed_in(new_page, base, "alice")
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}
    page.context.add_cookies([cookie])
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#players li")

    assert page.evaluate(LINES, [0, 1]) == expected
