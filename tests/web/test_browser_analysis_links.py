"""The analysis summary links each blunder to its place in the replay: "mano 1, jugada
5" in the "Errores graves" cell is ``?hand=1&move=5``, the position the replay's line
counts ("Mano 1 de N · jugada 5 de M"); followed, the replay stands there with the
blunder's note, and the same address opened afresh opens the replay there."""

from __future__ import annotations

import contextlib

import pytest

from tables.models import MatchAnalysis
from tests.support.browser import BROWSER_MARKS, signed_in
from tests.support.finished import quick_finished_table

pytestmark = BROWSER_MARKS


@pytest.fixture
def finished(alice):
    return quick_finished_table([alice], ["nino"], 5, lambda **_: contextlib.nullcontext())


def test_each_blunder_links_to_its_place_in_the_replay(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.click("#analyse")
    page.wait_for_selector("#analysis[data-status=done]")
    result = MatchAnalysis.objects.get(table=finished).result
    blunders = [m for m in result["moves"] if m["mark"] == "blunder" and m["seat"] == 0]
    if not blunders:  # this deal's play made none: mark one, as the analysis would
        result["moves"][0]["mark"] = "blunder"
        MatchAnalysis.objects.filter(table=finished).update(result=result)
        blunders = [result["moves"][0]]
        page.reload()
        page.wait_for_selector("#analysis[data-status=done]")
    links = page.locator("#analysis-summary a.blunder-link")
    assert links.count() == len(blunders)
    first = blunders[0]
    hand, move = first["hand"] + 1, first["action"] + 1
    assert links.first.get_attribute("href") == f"?hand={hand}&move={move}"
    assert links.first.inner_text() == f"mano {hand}, jugada {move}"
    links.first.click()
    assert page.get_attribute("#replay", "data-place") == f"{first['hand']}:{move}"
    assert page.url.endswith(f"?hand={hand}&move={move}")
    assert page.inner_text("#position").startswith(f"Mano {hand} de ")
    assert f"jugada {move} de" in page.inner_text("#position")
    assert page.inner_text("#judgement").startswith("Error grave:")
    # The address alone opens the replay there.
    other = signed_in(new_page, base, "alice")
    other.goto(f"{base}/mesas/{finished.pk}/partida/?hand={hand}&move={move}")
    assert other.get_attribute("#replay", "data-place") == f"{first['hand']}:{move}"
    assert other.inner_text("#judgement").startswith("Error grave:")
