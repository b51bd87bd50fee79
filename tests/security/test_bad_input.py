"""Bad input, table-driven: wrong types, unknown tiles, huge or malformed bodies, other
tables' ids and seats, versions and ends out of range, unknown fields. Each is a 4xx
with a stable ``code``, never a 500, and nothing changes (version, moves, tables)."""

from __future__ import annotations

import json
import random

import pytest

from tables.models import Move, MoveRequest, Table
from tests.support.api import create_table, play_one, seated_clients, table

pytestmark = pytest.mark.django_db

MOVES = "/api/v1/tables/{id}/moves/"
HUGE = 10**20

# (name, method, path, body, extra request kwargs, status, codes)
# In paths and bodies: {id} is the running table, {other} a table the caller does not sit
# at, {version} its current version, {tile}/{end} a legal move of the caller's.
CASES = [
    ("tile 7-7", "post", MOVES, {"tile": "7-7", "version": "{version}"}, {}, 400, {"invalid"}),
    ("tile x", "post", MOVES, {"tile": "x", "version": "{version}"}, {}, 400, {"invalid"}),
    ("tile 64", "post", MOVES, {"tile": 64, "version": "{version}"}, {}, 400, {"invalid"}),
    ("tile null", "post", MOVES, {"tile": None, "version": "{version}"}, {}, 400, {"invalid"}),
    ("tile list", "post", MOVES, {"tile": ["6-6"], "version": "{version}"}, {}, 400, {"invalid"}),
    (
        "tile object",
        "post",
        MOVES,
        {"tile": {"a": 1}, "version": "{version}"},
        {},
        400,
        {"invalid"},
    ),
    ("tile 6-4-1", "post", MOVES, {"tile": "6-4-1", "version": "{version}"}, {}, 400, {"invalid"}),
    ("tile missing", "post", MOVES, {"version": "{version}"}, {}, 400, {"invalid"}),
    (
        "tile not held",
        "post",
        MOVES,
        {"tile": "{foreign}", "version": "{version}"},
        {},
        400,
        {"tile_not_in_hand", "wrong_lead"},
    ),
    ("version missing", "post", MOVES, {"tile": "{tile}"}, {}, 400, {"invalid"}),
    ("version string", "post", MOVES, {"tile": "{tile}", "version": "abc"}, {}, 400, {"invalid"}),
    ("version null", "post", MOVES, {"tile": "{tile}", "version": None}, {}, 400, {"invalid"}),
    ("version bool", "post", MOVES, {"tile": "{tile}", "version": True}, {}, 400, {"invalid"}),
    ("version float", "post", MOVES, {"tile": "{tile}", "version": 1.5}, {}, 400, {"invalid"}),
    ("version negative", "post", MOVES, {"tile": "{tile}", "version": -1}, {}, 400, {"invalid"}),
    (
        "version huge",
        "post",
        MOVES,
        {"tile": "{tile}", "version": HUGE},
        {},
        409,
        {"stale_version"},
    ),
    (
        "version with 400 digits",
        "post",
        MOVES,
        {"tile": "{tile}", "version": 10**400},
        {},
        409,
        {"stale_version"},
    ),
    (
        "version with 5000 digits",
        "post",
        MOVES,
        b'{"tile": "6-6", "version": 1' + b"0" * 5000 + b"}",
        {},
        400,
        {"malformed_json"},
    ),
    (
        "version stale",
        "post",
        MOVES,
        {"tile": "{tile}", "version": "{stale}"},
        {},
        409,
        {"stale_version"},
    ),
    (
        "end -1",
        "post",
        MOVES,
        {"tile": "{tile}", "end": -1, "version": "{version}"},
        {},
        400,
        {"invalid"},
    ),
    (
        "end 7",
        "post",
        MOVES,
        {"tile": "{tile}", "end": 7, "version": "{version}"},
        {},
        400,
        {"invalid", "tile_does_not_fit"},
    ),
    (
        "end 10",
        "post",
        MOVES,
        {"tile": "{tile}", "end": 10, "version": "{version}"},
        {},
        400,
        {"invalid", "tile_does_not_fit"},
    ),
    (
        "end huge",
        "post",
        MOVES,
        {"tile": "{tile}", "end": HUGE, "version": "{version}"},
        {},
        400,
        {"invalid"},
    ),
    (
        "end string",
        "post",
        MOVES,
        {"tile": "{tile}", "end": "left", "version": "{version}"},
        {},
        400,
        {"invalid"},
    ),
    (
        "unknown field",
        "post",
        MOVES,
        {"tile": "{tile}", "end": "{end}", "version": "{version}", "player": 1},
        {},
        400,
        {"invalid"},
    ),
    # ``seat`` names the hand a move is for (seven_plus_seven); a seat the caller does
    # not hold is refused, whatever the tile.
    (
        "seat not mine",
        "post",
        MOVES,
        {"tile": "{tile}", "end": "{end}", "version": "{version}", "seat": "{rival}"},
        {},
        400,
        {"not_your_seat"},
    ),
    (
        "seat 4",
        "post",
        MOVES,
        {"tile": "{tile}", "end": "{end}", "version": "{version}", "seat": 4},
        {},
        400,
        {"invalid"},
    ),
    (
        "seat negative",
        "post",
        MOVES,
        {"tile": "{tile}", "end": "{end}", "version": "{version}", "seat": -1},
        {},
        400,
        {"invalid"},
    ),
    (
        "seat string",
        "post",
        MOVES,
        {"tile": "{tile}", "end": "{end}", "version": "{version}", "seat": "me"},
        {},
        400,
        {"invalid"},
    ),
    (
        "misspelt end",
        "post",
        MOVES,
        {"tile": "{tile}", "ends": 6, "version": "{version}"},
        {},
        400,
        {"invalid"},
    ),
    ("body is a list", "post", MOVES, ["{tile}"], {}, 400, {"invalid"}),
    ("body is a string", "post", MOVES, "6-6", {}, 400, {"invalid"}),
    ("body is a number", "post", MOVES, 64, {}, 400, {"invalid"}),
    ("body is null", "post", MOVES, None, {}, 400, {"invalid"}),
    ("malformed json", "post", MOVES, b'{"tile": "6-6", ', {}, 400, {"malformed_json"}),
    (
        "NaN",
        "post",
        MOVES,
        b'{"tile": "6-6", "version": NaN}',
        {},
        400,
        {"malformed_json", "invalid"},
    ),
    ("not utf-8", "post", MOVES, b'{"tile": "\xff\xfe"}', {}, 400, {"malformed_json"}),
    ("empty body", "post", MOVES, b"", {}, 400, {"invalid"}),
    (
        "huge body",
        "post",
        MOVES,
        b'{"tile": "' + b"6" * (65 * 1024) + b'"}',
        {},
        413,
        {"request_too_large"},
    ),
    (
        "form encoded",
        "post",
        MOVES,
        "tile=6-6&version=1",
        {"content_type": "application/x-www-form-urlencoded"},
        415,
        {"unsupported_media_type"},
    ),
    (
        "another table",
        "post",
        "/api/v1/tables/{other}/moves/",
        {"tile": "{tile}", "version": "{version}"},
        {},
        404,
        {"not_found"},
    ),
    (
        "no such table",
        "post",
        "/api/v1/tables/987654321/moves/",
        {"tile": "{tile}", "version": "{version}"},
        {},
        404,
        {"not_found"},
    ),
    (
        "table id beyond bigint",
        "post",
        f"/api/v1/tables/{HUGE}/moves/",
        {"tile": "{tile}", "version": "{version}"},
        {},
        404,
        {"not_found"},
    ),
    ("get table id beyond bigint", "get", f"/api/v1/tables/{HUGE}/", None, {}, 404, {"not_found"}),
    (
        "idempotency key too long",
        "post",
        MOVES,
        {"tile": "{tile}", "version": "{version}"},
        {"HTTP_IDEMPOTENCY_KEY": "k" * 129},
        400,
        {"invalid"},
    ),
    (
        "since_version not ascii",
        "get",
        "/api/v1/tables/{id}/?since_version=%C2%B2",
        None,
        {},
        200,
        None,
    ),
    (
        "another table's seat renew",
        "post",
        "/api/v1/tables/{other}/invites/1/renew/",
        None,
        {},
        404,
        {"not_found"},
    ),
    (
        "seat beyond the table",
        "post",
        "/api/v1/tables/{id}/invites/9/renew/",
        None,
        {},
        {404, 409},
        {"not_found", "table_not_open"},
    ),
    (
        "seat index huge",
        "post",
        f"/api/v1/tables/{{id}}/invites/{HUGE}/renew/",
        None,
        {},
        404,
        {"not_found"},
    ),
    (
        "abandon another table",
        "post",
        "/api/v1/tables/{other}/abandon/",
        None,
        {},
        404,
        {"not_found"},
    ),
    (
        "record of another table",
        "get",
        "/api/v1/tables/{other}/record/",
        None,
        {},
        404,
        {"not_found"},
    ),
    (
        "invite token with NUL",
        "get",
        "/api/v1/invites/abc%00def/",
        None,
        {},
        404,
        {"invite_not_found"},
    ),
    (
        "invite token with NUL join",
        "post",
        "/api/v1/invites/abc%00def/join/",
        None,
        {},
        404,
        {"invite_not_found"},
    ),
    (
        "invite token too long",
        "get",
        "/api/v1/invites/" + "a" * 300 + "/",
        None,
        {},
        404,
        {"invite_not_found"},
    ),
    (
        "create: 5 seats",
        "post",
        "/api/v1/tables/",
        {"seats": 5, "target": 100, "others": ["nino"] * 4},
        {},
        400,
        {"invalid"},
    ),
    (
        "create: target 70",
        "post",
        "/api/v1/tables/",
        {"seats": 2, "target": 70, "others": ["nino"]},
        {},
        400,
        {"invalid", "invalid_table"},
    ),
    (
        "create: unknown bot",
        "post",
        "/api/v1/tables/",
        {"seats": 2, "target": 50, "others": ["robot"]},
        {},
        400,
        {"invalid"},
    ),
    (
        "create: others too many",
        "post",
        "/api/v1/tables/",
        {"seats": 2, "target": 50, "others": ["nino", "nino"]},
        {},
        400,
        {"invalid", "invalid_table"},
    ),
    (
        "create: others not a list",
        "post",
        "/api/v1/tables/",
        {"seats": 2, "target": 50, "others": "nino"},
        {},
        400,
        {"invalid"},
    ),
    (
        "create: unknown field",
        "post",
        "/api/v1/tables/",
        {"seats": 2, "target": 50, "others": ["nino"], "state": {}},
        {},
        400,
        {"invalid"},
    ),
    (
        "create: wrong type",
        "post",
        "/api/v1/tables/",
        {"seats": "two", "target": 50, "others": ["nino"]},
        {},
        400,
        {"invalid"},
    ),
]


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
