"""The table API sends a finished hand's reason in parts (``last_hand.explanation``,
``dominoes.reason.HandReason.to_dict``), so the table page formats them and decides
nothing: who went out, whose tiles did not count, the numbers summed into the points, the
lowest count and who held it. ``static/js/table/explain.js`` holds no rule of its own."""

from __future__ import annotations

import random
import re

import pytest

from tests.support.api import create_table, join, play_until
from tests.support.engine import REPO

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [4, 11])
def test_the_api_sends_the_reasons_parts(seed, api_client_for, alice, bob, carol, dave, mallory):
    created = create_table(api_client_for(alice), 4, ["friend"] * 3)
    clients = {0: api_client_for(alice)}
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    for seat, user in ((1, bob), (2, carol), (3, dave)):
        clients[seat] = api_client_for(user)
        join(clients[seat], invites[seat])
    state = play_until(
        clients, created["id"], random.Random(seed), lambda s: s["game"]["last_hand"] is not None
    )
    last = state["game"]["last_hand"]
    why = last["explanation"]
    assert (why["end"], why["counts"], why["winners"], why["points"]) == (
        last["end"],
        last["counts"],
        last["winners"],
        last["points"],
    )
    assert why["rules"][:2] == ["R17" if last["end"] == "domino" else "R18", "R19"]
    assert why["team_counts"] == [
        last["counts"][0] + last["counts"][2],
        last["counts"][1] + last["counts"][3],
    ]
    if why["winners"]:
        assert why["addends"] == [last["counts"][seat] for seat in why["scored_seats"]]
        assert sum(why["addends"]) == why["points"]
    if last["end"] == "domino":
        out = why["went_out"]
        assert last["holdings"][out] == []
        assert why["uncounted_partner"] == (out + 2) % 4  # classic: partners sit across
        assert why["scored"] == "rivals" and why["rule"] == "R20"
    else:
        assert why["lowest"] == min(last["counts"]) and why["rule"] == "R22"
    stranger = api_client_for(mallory).get(f"/api/v1/tables/{created['id']}/")
    assert stranger.status_code == 404 and "explanation" not in stranger.content.decode()


def test_the_pages_script_decides_nothing_of_the_hands_end():
    """No count compared, summed or partner worked out in the page's explanation script:
    only the server's parts put into words."""
    script = (REPO / "static" / "js" / "table" / "explain.js").read_text(encoding="utf-8")
    code = "\n".join(line.split("//")[0] for line in script.splitlines())
    for written in (r"%\s*\d", r"\.reduce\(", r"findIndex", r"Math\.min", r"holdings"):
        assert not re.search(written, code), written
    for part in ("addends", "went_out", "uncounted_partner", "lowest_seat", "scored"):
        assert f"why.{part}" in code, part
