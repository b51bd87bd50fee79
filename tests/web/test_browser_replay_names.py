"""The replay names the seats as the table page does, through the same code and words
(static/js/table/names.js, ui_strings.seat_words), in Chromium at 390x844 and 1280x800: a
bot's row reads "Nino (bot)", to everyone, where it read "Nino"; at seven_plus_seven,
where one person holds both seats of a pair, each seat says which it is, "alice (asiento
1) (tú)" and "Nino (asiento 2) (bot)", where the replay showed a plain "alice" and "Nino"
on two rows each. The sentences name the seat as the table page's log does ("Nino (asiento
2) jugó 6-4"), never with the tags."""

from __future__ import annotations

import contextlib

from tables import services
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.finished import quick_finished_table

pytestmark = BROWSER_MARKS

def _no_capture(**_):
    """What ``quick_finished_table`` takes for pytest-django's capture of on-commit
    callbacks: none here, where the bots answer on commit by themselves (transactions)."""
    return contextlib.nullcontext()


def _table_page_names(page, base: str, table_id: int) -> list[str]:
    """The seats' names on the (finished) table page, tags included, turn mark left out."""
    page.goto(f"{base}/mesas/{table_id}/")
    page.wait_for_selector("#players li .name")
    return [name.strip("▶ ") for name in page.locator("#players .name").all_inner_texts()]


def _replay_names(page, url: str) -> list[str]:
    """The seats' names on the replay at ``url``, tags included."""
    page.goto(url)
    page.wait_for_selector("#seats li")
    return page.locator("#seats li .name").all_inner_texts()


def _step_to_play_of(page, seats: set[int]) -> tuple[int, str]:
    """Step to the first hand's first play after the lead by one of ``seats``; that seat
    and its tile."""
    data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
    for index, step in enumerate(data["hands"][0]["steps"]):
        action = step["action"]
        played = action and action["kind"] == "play" and len(step["line"]) > 1
        if played and action["seat"] in seats:
            for _ in range(index):
                page.keyboard.press("ArrowRight")
            assert page.get_attribute("#replay", "data-place") == f"0:{index}"
            return action["seat"], action["tile"]
    raise AssertionError(f"no play by {seats} after the lead")


def test_a_bot_is_tagged_on_the_replay_as_on_the_table_page(live_server, new_page, alice):
    finished = quick_finished_table([alice], ["nino"], 5, _no_capture)
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    names = _table_page_names(page, base, finished.pk)
    assert names == ["alice (tú)", "Nino (bot)"]

    assert _replay_names(page, f"{base}/mesas/{finished.pk}/partida/") == names
    _, tile = _step_to_play_of(page, {1})
    assert page.inner_text("#action") == f"Nino jugó {tile}"  # as the log says it
    shot(page, "replay-bot-phone", PHONE)
    shot(page, "replay-bot-desktop", DESKTOP)
    link, _ = services.replay_publish(table_id=finished.pk, user=alice)
    visitor = new_page()  # signed out: nobody is "tú", the bot is still a bot
    assert _replay_names(visitor, f"{base}/partida/{link.token}/") == ["alice", "Nino (bot)"]


def test_at_seven_plus_seven_each_seat_says_which_it_is(
    live_server, new_page, alice, generous_rates
):
    finished = quick_finished_table(
        [alice], ["nino"], 7, _no_capture, rules="seven_plus_seven", seats=4, target=150
    )
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    names = _table_page_names(page, base, finished.pk)
    assert names == [  # a no-break space: "(asiento 1)" stays on one line
        "alice (asiento\u00a01) (tú)",
        "Nino (asiento\u00a02) (bot)",
        "alice (asiento\u00a03) (tú)",
        "Nino (asiento\u00a04) (bot)",
    ]

    replay = f"{base}/mesas/{finished.pk}/partida/"
    assert _replay_names(page, replay) == names
    seat, tile = _step_to_play_of(page, {1, 3})
    assert page.inner_text("#action") == f"Nino (asiento\u00a0{seat + 1}) jugó {tile}"
    shot(page, "replay-seven-plus-seven-phone", PHONE)
    shot(page, "replay-seven-plus-seven-desktop", DESKTOP)
    _replay_names(page, replay)  # back to the deal
    seat, tile = _step_to_play_of(page, {0, 2})
    assert page.inner_text("#action") == f"Jugaste {tile} (tu mano del asiento\u00a0{seat + 1})"
    link, _ = services.replay_publish(table_id=finished.pk, user=alice)
    visitor = new_page()  # signed out
    shown = _replay_names(visitor, f"{base}/partida/{link.token}/")
    assert shown == [name.replace(" (tú)", "") for name in names]
