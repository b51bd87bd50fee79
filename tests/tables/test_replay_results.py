"""Each hand of a finished match's replay carries how it ended (``replays.hand_results``),
as the table page's summary of a hand's end reads it: the replay's last step of a hand
says it (static/js/replay.js). The results agree with what ``python -m dominoes replay``
answers for the record, and every hand has one."""

from __future__ import annotations

import pytest

from tables import replays
from tests.support.finished import quick_finished_table

pytestmark = pytest.mark.django_db


def test_every_hand_says_how_it_ended(alice, django_capture_on_commit_callbacks):
    finished = quick_finished_table([alice], ["nino"], 0, django_capture_on_commit_callbacks)
    data = replays.replay_data(finished, viewer=alice)
    answers = data["answer"]["hands"]
    assert len(data["hands"]) == len(answers) > 1
    for hand, answer in zip(data["hands"], answers, strict=True):
        result = hand["result"]
        assert result["end"] == answer["end"] in ("domino", "blocked")
        assert result["winners"] == answer["winner"] and result["points"] == answer["points"]
        assert result["counts"] == answer["counts"]
        assert result["explanation"]["rule"] in ("R20", "R21", "R23")
        assert result["holdings"] == hand["steps"][-1]["holdings"]  # the tiles left (R19)
        assert "line" not in result and "log" not in result  # the steps show those
