"""``python -m dominoes replay`` against every record in ``tests/cases`` (RECORD.md, "replay").

Each ``NAME.json`` must print what ``NAME.expected.json`` holds, compared as
``tests/cases/README.md`` says: ``ok``; for a legal record every hand's ``end``, ``winner``,
``points``, ``counts`` and ``leader``, then ``scores`` and ``winner``; for an illegal one
``hand``, ``action``, ``error`` and ``rule``. ``message`` is free text and never compared.
Exit status: 0 legal, 1 illegal, 2 unreadable.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys

import pytest

from dominoes import replay_text
from dominoes.cli import main as cli_main
from tests.support.engine import CASES, REPO, case

CASE_FILES = sorted(
    path for path in CASES.glob("*.json") if not path.name.endswith(".expected.json")
)
HAND_FIELDS = ("end", "winner", "points", "counts", "leader")
ILLEGAL_FIELDS = ("hand", "action", "error", "rule")


def run_replay(argument: str, stdin: str | bytes | None = None) -> tuple[int, dict]:
    """Run the command line from the repository root; returns (exit status, parsed stdout)."""
    completed = subprocess.run(
        [sys.executable, "-m", "dominoes", "replay", argument],
        cwd=REPO,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        timeout=60,
    )
    stdout = completed.stdout.decode("utf-8")
    try:
        answer = json.loads(stdout)
    except json.JSONDecodeError:
        pytest.fail(
            f"replay printed no JSON (exit {completed.returncode}):\n{stdout}\n"
            f"{completed.stderr.decode('utf-8', 'replace')}"
        )
    return completed.returncode, answer


def comparable(answer: dict) -> dict:
    """The part of a replay answer that README.md says to compare."""
    if answer.get("ok"):
        return {
            "ok": True,
            "hands": [{field: hand[field] for field in HAND_FIELDS} for hand in answer["hands"]],
            "scores": answer["scores"],
            "winner": answer["winner"],
        }
    return {"ok": False, **{field: answer[field] for field in ILLEGAL_FIELDS}}


def expected_for(path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def test_the_cases_directory_holds_every_shared_case():
    """A floor, not the whole test (tests/cases/README.md): at least the 22 shared cases,
    each with its answer."""
    assert len(CASE_FILES) >= 22
    for path in CASE_FILES:
        assert path.with_name(path.stem + ".expected.json").exists(), path.name


@pytest.mark.parametrize("path", CASE_FILES, ids=[path.stem for path in CASE_FILES])
def test_replay_prints_the_expected_answer(path):
    expected = expected_for(path)
    status, answer = run_replay(str(path.relative_to(REPO)))
    assert status == (0 if expected["ok"] else 1)
    assert comparable(answer) == comparable(expected)
    assert "message" in answer or answer["ok"]


@pytest.mark.parametrize("path", CASE_FILES, ids=[path.stem for path in CASE_FILES])
def test_replay_text_agrees_with_the_command_line(path):
    """The in-process ``replay_text`` gives the same status and answer as the CLI."""
    expected = expected_for(path)
    status, answer = replay_text(path.read_text(encoding="utf-8"))
    assert status == (0 if expected["ok"] else 1)
    assert comparable(answer) == comparable(expected)


def test_replay_reads_standard_input_for_a_dash():
    path = CASES / "match_to_100_4_seats.json"
    status, answer = run_replay("-", stdin=path.read_text(encoding="utf-8"))
    assert status == 0
    assert comparable(answer) == comparable(expected_for(path))


def test_replay_reports_an_illegal_record_from_standard_input():
    path = CASES / "pass_with_a_play.json"
    status, answer = run_replay("-", stdin=path.read_text(encoding="utf-8"))
    assert status == 1
    assert comparable(answer) == comparable(expected_for(path))


def test_a_legal_answer_has_exactly_the_documented_keys():
    """RECORD.md's legal answer: ok, hands (end, winner, points, counts, leader), scores,
    winner."""
    status, answer = replay_text((CASES / "match_to_50.json").read_text(encoding="utf-8"))
    assert status == 0
    assert set(answer) == {"ok", "hands", "scores", "winner"}
    assert all(set(hand) == set(HAND_FIELDS) for hand in answer["hands"])


def test_an_in_progress_hand_is_reported_as_such():
    """RECORD.md: a hand whose actions stop before it ends is in progress; its counts are
    null and the match winner is null."""
    record = case("fits_both_ends_with_end")
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:3]
    status, answer = replay_text(json.dumps(record))
    assert status == 0
    assert answer["hands"] == [
        {"end": "in_progress", "winner": [], "points": 0, "counts": None, "leader": 1}
    ]
    assert answer["scores"] == [0, 0]
    assert answer["winner"] is None


def test_a_hand_after_an_unfinished_hand_is_hand_in_progress():
    record = case("match_to_50")
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:3]
    status, answer = replay_text(json.dumps(record))
    assert status == 1
    assert comparable(answer) == {
        "ok": False,
        "hand": 1,
        "action": None,
        "error": "hand_in_progress",
        "rule": "R17",
    }


def test_nothing_after_the_first_illegal_action_is_read():
    """RECORD.md: the first illegal action is reported and nothing after it is read, even
    garbage that would otherwise be another fault."""
    record = case("play_out_of_turn")
    record["hands"][0]["actions"].append({"seat": 1, "play": "0-0", "end": 4})
    record["hands"].append({"dealt": [], "stock": [], "actions": []})
    status, answer = replay_text(json.dumps(record))
    assert status == 1
    assert (answer["hand"], answer["action"], answer["error"]) == (0, 1, "not_your_turn")


# --- unreadable input: exit 2 ------------------------------------------------------------

BASE = "play_out_of_turn"  # a 2-seat record; the mutations below break its shape


def _set(path: tuple, value):
    def mutate(record: dict) -> dict:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return record

    return mutate


def _delete(key: str):
    def mutate(record: dict) -> dict:
        del record[key]
        return record

    return mutate


UNREADABLE_RECORDS = [
    ("unknown_format", _set(("format",), "dominoes-record/2")),
    ("missing_format", _delete("format")),
    ("unknown_rules", _set(("rules",), "cuban")),
    ("seats_not_allowed", _set(("seats",), 5)),
    ("seats_not_a_number", _set(("seats",), "2")),
    ("target_not_a_number", _set(("target",), "100")),
    ("hands_not_a_list", _set(("hands",), {"0": {}})),
    ("hands_a_string", _set(("hands",), "none")),
    ("hand_not_an_object", _set(("hands", 0), ["6-6"])),
    ("dealt_not_lists", _set(("hands", 0, "dealt"), "6-6 6-5")),
    ("actions_not_a_list", _set(("hands", 0, "actions"), {"seat": 0, "play": "5-5"})),
    ("tile_7_1_dealt", _set(("hands", 0, "dealt", 0, 0), "7-1")),
    ("tile_x_dealt", _set(("hands", 0, "dealt", 1, 0), "x")),
    ("tile_number_dealt", _set(("hands", 0, "dealt", 1, 0), 66)),
    ("tile_three_pips", _set(("hands", 0, "dealt", 1, 0), "6-6-6")),
    ("tile_bad_in_stock", _set(("hands", 0, "stock", 0), "6-7")),
    ("tile_bad_in_play", _set(("hands", 0, "actions", 0, "play"), "7-1")),
    ("tile_x_in_play", _set(("hands", 0, "actions", 0, "play"), "x")),
    ("seat_out_of_range", _set(("hands", 0, "actions", 1, "seat"), 2)),
    ("seat_negative", _set(("hands", 0, "actions", 1, "seat"), -1)),
    ("seat_not_a_number", _set(("hands", 0, "actions", 1, "seat"), "1")),
    ("action_neither_play_draw_nor_pass", _set(("hands", 0, "actions", 1), {"seat": 1})),
    ("end_not_a_number", _set(("hands", 0, "actions", 1, "end"), "5")),
    ("seed_not_hex", _set(("hands", 0, "seed"), "not hex")),
]

ENGINE_CRASHES = [
    pytest.param("rules_not_a_string", _set(("rules",), ["classic"])),
    pytest.param("tile_with_unicode_digit", _set(("hands", 0, "dealt", 0, 0), "\u00b2-1")),
    pytest.param(
        "seat_is_a_boolean", _set(("hands", 0, "actions"), [{"seat": True, "pass": True}])
    ),
]


def run_cli_in_process(argument: str, stdin: str, capsys, monkeypatch) -> tuple[int, dict]:
    """``dominoes.cli.main`` in this process (no interpreter start-up): exit status and
    the parsed JSON it printed."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli_main(["replay", argument])
    return status, json.loads(capsys.readouterr().out)


def _assert_unreadable(status: int, answer: dict) -> None:
    assert status == 2
    assert answer["ok"] is False
    assert answer["error"] == "unreadable"
    assert isinstance(answer["message"], str) and answer["message"]
    assert set(answer) == {"ok", "error", "message"}


@pytest.mark.parametrize(
    ("name", "mutate"),
    [pytest.param(name, mutate, id=name) for name, mutate in UNREADABLE_RECORDS] + ENGINE_CRASHES,
)
def test_a_record_of_the_wrong_shape_is_unreadable(name, mutate, capsys, monkeypatch):
    record = mutate(copy.deepcopy(case(BASE)))
    _assert_unreadable(*run_cli_in_process("-", json.dumps(record), capsys, monkeypatch))


@pytest.mark.parametrize("name", ["unknown_format", "tile_7_1_dealt", "seat_out_of_range"])
def test_the_command_line_exits_2_for_an_unreadable_record(name):
    """End to end through a real interpreter for a few of the shapes above."""
    mutate = dict(UNREADABLE_RECORDS)[name]
    record = mutate(copy.deepcopy(case(BASE)))
    _assert_unreadable(*run_replay("-", stdin=json.dumps(record)))


@pytest.mark.parametrize(
    "text",
    ["{not json", "", "[1, 2]", '"dominoes"', "null"],
    ids=["bad_json", "empty", "a_list", "a_string", "null"],
)
def test_text_that_is_not_a_record_object_is_unreadable(text, capsys, monkeypatch):
    _assert_unreadable(*run_cli_in_process("-", text, capsys, monkeypatch))


def test_bad_json_on_standard_input_exits_2():
    _assert_unreadable(*run_replay("-", stdin="{not json"))


def test_a_missing_file_is_unreadable(tmp_path):
    _assert_unreadable(*run_replay(str(tmp_path / "no-such-record.json")))


def test_a_directory_is_unreadable(tmp_path):
    _assert_unreadable(*run_replay(str(tmp_path)))


def test_a_file_that_is_not_utf8_is_unreadable(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "dominoes-record/1", "rules": "cl\xe1sico"}')
    _assert_unreadable(*run_replay(str(path)))


def test_tiles_are_read_in_either_pip_order():
    """RECORD.md: either pip order is accepted on input."""
    record = case("fits_both_ends_with_end")
    hand = record["hands"][0]
    hand["dealt"] = [["-".join(reversed(t.split("-"))) for t in seat] for seat in hand["dealt"]]
    for action in hand["actions"]:
        action["play"] = "-".join(reversed(action["play"].split("-")))
    status, answer = replay_text(json.dumps(record))
    assert status == 0
    assert comparable(answer) == comparable(expected_for(CASES / "fits_both_ends_with_end.json"))
