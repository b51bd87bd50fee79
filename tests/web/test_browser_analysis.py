"""The analysis on the replay page (issue 20) and the public replay link (issue 16), in
Chromium at 390x844 and 1280x800: alice asks for the analysis, watches its progress, steps
to a marked move and reads the better move on its line (her own move in the second person,
"con 6-4 ganabas la mano"), shares the match; a signed-out visitor opens the link and sees
the replay and its analysis, alice's move in the third person ("ganaba"). The note names
what the better move is better at (it wins the hand more often) with the decimals that
tell the two chances apart, where it read "ganaba la mano 33 % (-2,7 puntos esperados);
mejor 4-0 en el 0: 33 % (-5,6)", and the status line counts the forced moves it left
out, where "2 jugadas juzgadas" stood alone for a player of 6 plays."""

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
    if marked["best"]["hand_win_chance"] != marked["hand_win_chance"]:  # wins more often
        assert f"la jugada que más veces la ganaba era {marked['best']['tile']}" in note
    else:  # as often, with more points
        assert f"; {marked['best']['tile']}" in note and "la ganaba igual de veces" in note
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


def _alice_plays(data: dict) -> list[tuple[int, int, str]]:
    """(hand, action index, tile) of alice's plays after the lead in the first hand."""
    steps = data["hands"][0]["steps"]
    return [
        (0, index - 1, step["action"]["tile"])
        for index, step in enumerate(steps)
        if step["action"]
        and step["action"]["seat"] == 0
        and step["action"]["kind"] == "play"
        and len(step["line"]) > 1
    ]


def _judged(place: tuple[int, int, str], chances: tuple[float, float], points, mark) -> dict:
    hand, action, tile = place
    played = {
        "tile": tile,
        "end": None,
        "hand_win_chance": chances[0],
        "expected_points": points[0],
    }
    best = {"tile": "4-0", "end": 0, "hand_win_chance": chances[1], "expected_points": points[1]}
    loss = {"hand_win_chance": max(0.0, chances[1] - chances[0]), "expected_points": 0.0}
    return {
        "hand": hand,
        "action": action,
        "seat": 0,
        **played,
        "best": best,
        "loss": loss,
        "mark": mark,
        "alternatives": [played, best],
        "deals": 400,
    }


def test_the_note_says_what_the_better_move_is_better_at(live_server, new_page, alice, finished):
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#seats li")
    data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
    first, second = _alice_plays(data)[:2]
    close = _judged(first, (0.329, 0.334), (-2.7, -5.6), None)  # the tester's "33 %" twice
    tie = _judged(second, (0.5, 0.5), (-1.0, 2.5), "inaccuracy")
    loss = {"hand_win_chance": 0.0025, "expected_points": 1.75}
    summary = {
        "seat": 0,
        "moves_analysed": 2,
        "forced": 4,
        "inaccuracies": 1,
        "errors": 0,
        "blunders": 0,
        "average_loss": loss,
    }
    MatchAnalysis.objects.create(
        table=finished,
        status=MatchAnalysis.Status.DONE,
        done=2,
        total=2,
        result={
            "format": "dominoes-analysis/1",
            "bot": "quelonia",
            "seats": [0],
            "moves": [close, tie],
            "summary": [summary],
        },
    )
    page.reload()
    page.wait_for_selector("#analysis[data-status=done]")
    assert page.inner_text("#analysis-status") == (
        "Análisis hecho: 2 jugadas juzgadas. No se juzgan 4 jugadas obligadas (una sola ficha"
        " posible, robar o pasar)."
    )
    _go_to(page, 0, first[1])
    assert page.inner_text("#judgement") == (
        f"Casi igual: con {first[2]} ganabas la mano 32,9\u00a0% de las veces (-2,7 puntos"
        " esperados); la jugada que más veces la ganaba era 4-0 en el 0: 33,4\u00a0% (-5,6)."
    )
    shot(page, "analysis-close-phone")
    page.reload()
    page.wait_for_selector("#analysis[data-status=done]")
    _go_to(page, 0, second[1])
    assert page.inner_text("#judgement") == (
        f"Imprecisión: con {second[2]} ganabas la mano 50\u00a0% de las veces (-1,0 puntos"
        " esperados); 4-0 en el 0 la ganaba igual de veces y con más puntos esperados (+2,5)."
    )


def test_the_page_says_it_is_working_while_the_request_is_answered(
    live_server, new_page, alice, finished
):
    """A server without a worker answers "Analizar la partida" only once the analysis is
    done, seconds later: until the answer, the status line says it is queued and the bar
    shows, instead of a greyed button and nothing else."""
    page = signed_in(new_page, live_server.url, "alice")
    held = []
    page.route(
        "**/analysis/",
        lambda route: held.append(route) if route.request.method == "POST" else route.fallback(),
    )
    page.goto(f"{live_server.url}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#analyse:not([hidden])")
    page.click("#analyse")
    page.wait_for_function(
        "() => document.getElementById('analysis-status').textContent.includes('Análisis en cola')"
    )
    assert len(held) == 1 and page.is_visible("#analysis-progress")
    shot(page, "analysis-asked-phone", PHONE)
    held[0].fallback()
    page.wait_for_selector("#analysis[data-status=done]")
    assert page.is_hidden("#analysis-progress")
