"""The analysis on the replay page (issue 20) and the public replay link (issue 16), in
Chromium at 390x844 and 1280x800: alice asks for the analysis, watches its progress, steps
to a marked move and reads the better move on its line (her own move in the second person,
"con 6-4 ganabas la mano"), shares the match; a signed-out visitor opens the link and sees
the replay and its analysis, alice's move in the third person ("ganaba")."""

from __future__ import annotations

import contextlib
import re

import pytest

from tables import services
from tables.models import MatchAnalysis
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.finished import quick_finished_table

pytestmark = BROWSER_MARKS


@pytest.fixture
def finished(alice):
    """alice against Nino, a whole match to 50 (snapshot only, ``quick_finished_table``)."""
    return quick_finished_table([alice], ["nino"], 5, lambda **_: contextlib.nullcontext())


def _go_to(page, hand: int, action: int) -> None:
    """Step with the keyboard to the position just after ``action`` of ``hand``."""
    for _ in range(hand):
        page.keyboard.press("ArrowDown")
    for _ in range(action + 1):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay", "data-place") == f"{hand}:{action + 1}"


def test_alice_analyses_her_match_and_shares_it(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#analyse:not([hidden])")
    assert "juzgar cada jugada" in page.inner_text("#analysis-status")
    page.click("#analyse")  # tasks run inline here: the answer is the finished analysis
    page.wait_for_selector("#analysis[data-status=done]")
    result = MatchAnalysis.objects.get(table=finished).result
    rows = page.locator("#analysis-summary tbody tr")
    assert rows.count() == 1 and rows.first.get_attribute("data-seat") == "0"
    summary = result["summary"][0]
    assert rows.first.locator("td").first.inner_text() == str(summary["moves_analysed"])
    spanish = f"{summary['average_loss']['expected_points']:.1f}".replace(".", ",")
    assert rows.first.locator("td").last.inner_text().endswith(f" {spanish} puntos")  # "2,5"
    assert page.is_hidden("#analyse")

    marked = next(move for move in result["moves"] if move["mark"])
    _go_to(page, marked["hand"], marked["action"])
    note = page.inner_text("#judgement")
    label = {"inaccuracy": "Imprecisión", "error": "Error", "blunder": "Error grave"}
    assert note.startswith(label[marked["mark"]] + ":")
    assert f"mejor {marked['best']['tile']}" in note
    assert f"con {marked['tile']}" in note and " ganabas la mano " in note  # alice's own move
    assert f"mark-{marked['mark']}" in page.get_attribute("#judgement", "class")
    shot(page, "analysis-marked-phone")
    shot(page, "analysis-marked-desktop", DESKTOP)

    page.set_viewport_size(PHONE)
    page.click("#share-make")
    page.wait_for_selector("#share-link:not([hidden])")
    link = page.get_attribute("#share-link", "href")
    assert re.fullmatch(r"/partida/[A-Za-z0-9_-]{40,}/", link)
    shot(page, "analysis-shared-phone")

    visitor = new_page()  # signed out
    visitor.goto(f"{base}{link}")
    visitor.wait_for_selector("#analysis[data-status=done]")
    assert visitor.locator("#analyse").count() == 0 and visitor.locator("#share").count() == 0
    _go_to(visitor, marked["hand"], marked["action"])
    assert visitor.inner_text("#judgement") == note.replace(" ganabas ", " ganaba ")
    shot(visitor, "analysis-public-phone")
    shot(visitor, "analysis-public-desktop", DESKTOP)

    page.click("#share-revoke")
    page.wait_for_selector("#share-make:not([hidden])")
    assert visitor.goto(f"{base}{link}").status == 404


def test_the_progress_shows_while_it_runs(live_server, new_page, alice, finished):
    """A queued analysis: the page shows its progress and polls until the worker is done."""
    row = MatchAnalysis.objects.create(
        table=finished, status=MatchAnalysis.Status.RUNNING, done=3, total=40
    )
    page = signed_in(new_page, base := live_server.url, "alice")
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#analysis-progress:not([hidden])")
    assert "Analizando: 3 de 40 jugadas" in page.inner_text("#analysis-status")
    assert page.is_hidden("#analyse")
    shot(page, "analysis-progress-phone")
    shot(page, "analysis-progress-desktop", DESKTOP)
    MatchAnalysis.objects.filter(pk=row.pk).update(status=MatchAnalysis.Status.QUEUED)
    assert services.analysis_run(analysis_id=row.pk)  # the worker's turn
    page.wait_for_selector("#analysis[data-status=done]")
    assert page.is_hidden("#analysis-progress")
    assert page.locator("#analysis-summary tbody tr").count() == 1
