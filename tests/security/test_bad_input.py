"""Bad input, table-driven: wrong types, unknown tiles, huge or malformed bodies, other
tables' ids and seats, versions and ends out of range, unknown fields. Each is a 4xx
with a stable ``code``, never a 500, and nothing changes (version, moves, tables)."""

from __future__ import annotations

import json
import random

import pytest

from tables.models import Move, MoveRequest, Table
from tests.security.bad_input_bodies_and_targets import BODY_AND_TARGET_CASES
from tests.security.bad_input_move_fields import MOVE_FIELD_CASES
from tests.security.bad_input_query_and_types import QUERY_AND_TYPE_CASES
from tests.support.api import create_table, play_one, seated_clients, table

pytestmark = pytest.mark.django_db

#: Every case, as (name, method, path, body, extra request kwargs, status, codes).
CASES = MOVE_FIELD_CASES + BODY_AND_TARGET_CASES + QUERY_AND_TYPE_CASES


def _fill(value, facts: dict):
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        key = value[1:-1]
        if key in facts:
            return facts[key]
    if isinstance(value, str):
        return value.format(**facts) if "{" in value else value
    if isinstance(value, dict):
        return {k: _fill(v, facts) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, facts) for v in value]
    return value


@pytest.fixture
def world(api_client_for, alice, bob, carol, mallory):
    """A running alice-bob table (lead played) seen by the seat to move; a table alice is
    not at."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    other = create_table(api_client_for(carol), 2, ["friend"])["id"]
    state = table(clients[0], table_id)
    # play the lead, so that the move under test is placed on an end (R11, R12)
    lead = table(clients[state["turn_seat"]], table_id)
    assert play_one(clients[state["turn_seat"]], lead, random.Random(0)).status_code == 200
    state = table(clients[0], table_id)
    seat = state["turn_seat"]
    mine = table(clients[seat], table_id)
    move = mine["game"]["legal_moves"][0]
    held = set(mine["game"]["tiles"])
    foreign = next(t for t in ("6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0") if t not in held)
    facts = {
        "id": table_id,
        "other": other,
        "version": state["version"],
        "stale": state["version"] - 1,
        "tile": move["tile"],
        "end": move["end"],
        "foreign": foreign,
        "rival": 1 - seat,
        # the right values in the wrong JSON type: a move DRF alone would have made
        "version_float": float(state["version"]),
        "version_text": str(state["version"]),
        "end_float": float(move["end"]),
        "seat_float": float(seat),
    }
    return clients[seat], facts


def _snapshot(table_id: int) -> tuple:
    return (
        Table.objects.count(),
        Table.objects.get(pk=table_id).version,
        Move.objects.count(),
        MoveRequest.objects.count(),
    )


@pytest.mark.parametrize(
    ("method", "path", "body", "extra", "status", "codes"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_bad_input_is_a_4xx_with_a_code_and_changes_nothing(
    world, method, path, body, extra, status, codes
):
    client, facts = world
    before = _snapshot(facts["id"])
    url = _fill(path, facts)
    kwargs = dict(extra)
    if isinstance(body, bytes):
        response = getattr(client, method)(
            url, body, content_type=kwargs.pop("content_type", "application/json"), **kwargs
        )
    elif isinstance(body, str) and "content_type" in kwargs:
        response = getattr(client, method)(url, body, **kwargs)
    elif body is None and method == "get":
        response = client.get(url, **kwargs)
    else:
        data = json.dumps(_fill(body, facts))
        response = getattr(client, method)(url, data, content_type="application/json", **kwargs)

    allowed = status if isinstance(status, set) else {status}
    assert response.status_code in allowed, (response.status_code, response.content[:300])
    if codes is not None:
        payload = response.json()
        assert payload["code"] in codes, payload
        assert isinstance(payload["detail"], str) and payload["detail"]
    assert _snapshot(facts["id"]) == before


def test_a_tile_with_spaces_around_it_is_refused_as_no_tile_and_nothing_moves(world):
    """The tester's " 6-4 ": it was trimmed and played; now the answer names ``tile`` and
    says how a tile is written, and the table is as it was."""
    client, facts = world
    before = _snapshot(facts["id"])

    answer = client.post(
        f"/api/v1/tables/{facts['id']}/moves/",
        {"tile": f" {facts['tile']} ", "end": facts["end"], "version": facts["version"]},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid"
    assert body["fields"] == {
        "tile": ['Write the tile as "6-4": two digits and a hyphen, no spaces.']
    }
    assert _snapshot(facts["id"]) == before
