"""The hand summary's sentence on the partner's tiles, through the table page's own script
(``whyNumbers`` of static/js/table/explain.js) in Chromium: at classic four seats a
domino scores the rivals' tiles only (R20), and the summary says whose tiles did not
count. alice went out: "Lo de bob no cuenta: es tu pareja." (it read "es su pareja", of
her own partner, to her); bob reads "Lo tuyo no cuenta: eres su pareja."; carol, a rival,
reads it in the third person. In Spanish and English."""

from __future__ import annotations

import pytest
from django.conf import settings

from dominoes.rules import CLASSIC
from dominoes.scoring import explain, score_domino
from dominoes.tiles import parse_tile
from tables import services
from tests.support.browser import BROWSER_MARKS, signed_in

pytestmark = BROWSER_MARKS

#: The sentence for a domino by seat 0 (alice's pair: seats 0 and 2) read from ``mine``,
#: of the explanation the server sends for it.
SENTENCE = """async ([mine, explanation]) => {
  const script = document.querySelector("script[type=module][src*='table']");
  const { whyNumbers } = await import(new URL("table/explain.js", script.src).href);
  const names = ["alice", "carol", "bob", "dave"];
  const who = { name: (seat) => names[seat], mine: (seat) => seat === mine };
  const last = { holdings: [[], ["6-6"], ["5-1"], ["4-4"]], explanation };
  const box = document.createElement("p");
  box.append(...whyNumbers(last, who));
  return box.textContent;
}"""


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "es",
            {
                0: "Lo de bob no cuenta: es tu pareja.",
                2: "Lo tuyo no cuenta: eres su pareja.",
                1: "Lo de bob no cuenta: es su pareja.",
            },
        ),
        (
            "en",
            {
                0: "bob's tiles do not count: bob is your partner.",
                2: "Your tiles do not count: you are their partner.",
                1: "bob's tiles do not count: a partner's never do.",
            },
        ),
    ],
)
def test_the_partner_sentence_speaks_to_the_reader(
    live_server, new_page, alice, language, expected
):
    base = live_server.url
    table = services.table_create(creator=alice, seats=2, target=100, others=["nino"])
    page = signed_in(new_page, base, "alice")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    )
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#players li")

    hands = [[parse_tile(name) for name in tiles] for tiles in ((), ("6-6",), ("5-1",), ("4-4",))]
    explanation = explain(CLASSIC, hands, score_domino(CLASSIC, hands, 0))
    for reader, sentence in expected.items():
        said = page.evaluate(SENTENCE, [reader, explanation])
        assert said.endswith(sentence), (reader, said)
