"""A count of one reads in the singular wherever the table page and its scripts say a
number of points: "1 punto", "1 point", never "1 puntos". The server sends a counted text
in both forms (``tables.plurals.plural_forms``), the script picks one (``counted`` in
``static/js/table/dom.js``); these check the forms in Spanish and English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from tables.ui_strings import replay_strings, ui_strings

ROOT = Path(__file__).resolve().parents[2]


def _said(key: str, number: int, language: str, words=ui_strings, **values) -> str:
    """``words()[key]`` in ``language``, in the form the script picks for ``number``
    (``counted``: "one" for exactly 1), filled with ``n`` = ``number`` and ``values``."""
    with translation.override(language):
        forms = words()[key]
    return (forms["one"] if number == 1 else forms["other"]) % {"n": number, **values}


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("es", "1 punto", "2 puntos"), ("en", "1 point", "2 points")],
)
def test_the_scoreboard_says_one_point_and_two_points(language, one, two):
    assert _said("points", 1, language) == one
    assert _said("points", 2, language) == two
    assert _said("points", 0, language) == two.replace("2", "0")


def test_the_replay_says_one_point_and_one_tile():
    assert _said("points", 1, "es", replay_strings) == "1 punto"
    assert _said("points", 30, "es", replay_strings) == "30 puntos"
    assert _said("points", 1, "en", replay_strings) == "1 point"
    assert _said("count", 1, "es", replay_strings) == "1 ficha"
    assert _said("count", 0, "en", replay_strings) == "0 tiles"


def test_the_hand_summary_says_who_scored_one_point():
    assert _said("scored", 1, "es", names="alice", points=1) == "alice se anota 1 punto."
    assert _said("scored", 2, "es", names="alice", points=2) == "alice se anota 2 puntos."
    pair = {"names": "alice y bob", "points": 1}
    assert _said("scored_many", 1, "es", **pair) == "alice y bob se anotan 1 punto."
    assert _said("scored", 1, "en", names="alice", points=1) == "alice scores 1 point."
    assert _said("scored_many", 2, "en", names="a and b", points=2) == "a and b score 2 points."


def test_the_numbers_of_a_one_point_hand_say_punto():
    values = {"rule": "R20", "sum": 1, "name": "alice", "count": 0}
    assert _said("why_domino", 1, "es", **values).endswith("(R20): 1 punto.")
    assert _said("why_lowest", 1, "es", **values).endswith("se lleva 1 punto.")
    assert _said("why_lowest", 2, "es", **{**values, "sum": "1 + 1 = 2"}).endswith(
        "se lleva 1 + 1 = 2 puntos."
    )
    assert _said("why_tie_winner", 1, "en", **values) == "alice wins and scores 1 point."
    assert _said("why_pair_that_led", 2, "en", **{**values, "sum": 2}).endswith("2 points.")


def test_the_time_left_and_the_tile_counts_come_in_both_forms_too():
    assert _said("day_hours", 1, "es", d=1, h=3) == "1 día y 3 h"
    assert _said("day_hours", 2, "en", d=2, h=3) == "2 days and 3 h"
    # The verb agrees with the number the time starts with ("Quedan 1 día, 23 h" before).
    assert _said("time_left", 1, "es", time="1 día y 3 h") == "Queda 1 día y 3 h para jugar."
    assert _said("time_left", 2, "es", time="2 días y 3 h") == "Quedan 2 días y 3 h para jugar."
    assert _said("time_left", 1, "en", time="1 day and 3 h") == "1 day and 3 h left to play."
    assert _said("tiles", 1, "es") == "1 ficha"
    assert _said("tiles", 5, "en") == "5 tiles"


@pytest.mark.parametrize(
    ("language", "theirs", "yours"),
    [
        (
            "es",
            ("Nino robó 1 ficha", "Nino robó 3 fichas"),
            ("Robaste 1 ficha", "Robaste 3 fichas"),
        ),
        ("en", ("Nino drew 1 tile", "Nino drew 3 tiles"), ("You drew 1 tile", "You drew 3 tiles")),
    ],
)
def test_the_log_says_one_tile_and_three_tiles_drawn_in_both_persons(language, theirs, yours):
    """A seat's draws read as one counted line, by name or, the reader's own, "Robaste"."""
    assert tuple(_said("log_draws", n, language, name="Nino") for n in (1, 3)) == theirs
    assert tuple(_said("log_draws_you", n, language) for n in (1, 3)) == yours


@pytest.mark.parametrize("words", [ui_strings, replay_strings])
def test_every_counted_text_has_both_forms_and_no_bare_puntos_after_a_number(words):
    """A text with a number of points is counted; only the analysis' decimals ("1,0
    puntos esperados", always one decimal) stay plural, and "Meta" is never 1 (a single
    hand says so instead)."""
    decimals = {"judged", "judged_best", "judged_you", "judged_best_you", "summary_loss"}
    decimals |= {"judged_tie", "judged_tie_you"}
    with translation.override("es"):  # another test's request may leave English active
        spanish = words()
    for key, text in spanish.items():
        if isinstance(text, dict):
            assert set(text) == {"one", "other"}, key
            assert text["one"] != text["other"], key
        elif key not in decimals and key != "target":
            assert ")s puntos" not in text, f"{key}: {text!r} needs ngettext (plural_forms)"


def test_the_scripts_pick_the_form_through_counted():
    table = "\n".join(
        path.read_text(encoding="utf-8") for path in (ROOT / "static/js/table").glob("*.js")
    )
    replay = (ROOT / "static/js/replay.js").read_text(encoding="utf-8")
    for key in ("points", "scored", "scored_many", "day_hours", "tiles", "why_domino"):
        assert f"fmt(T.{key}," not in table, f"T.{key} is counted: use counted(T.{key}, n)"
    for key in ("points", "count"):
        assert f"fmt(T.{key}," not in replay, f"T.{key} is counted: use counted(T.{key}, n)"
    assert "export function counted(forms, count)" in table
    # One way to count: no script picks between a "one" key and a "many" key of its own.
    for path in (ROOT / "static/js").rglob("*.js"):
        if path.name != "dom.js":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r'=== 1 \? (T\.|T\[|")', text), f"{path.name}: use counted()"
