"""Response headers that keep answers where they belong: static files send no CORS header,
and answers that hold a player's tiles are not stored by browsers or shared caches."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

STATIC_FILES = [
    "/static/css/site.css",
    "/static/js/table.js",
    "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
]


@pytest.mark.parametrize("path", STATIC_FILES)
def test_finding_13_static_files_send_no_cors_header(client, path):
    """Issue 13, finding 13: WhiteNoise adds ``Access-Control-Allow-Origin: *`` to every
    static file unless told not to; the site promises no CORS header at all."""
    reply = client.get(path, HTTP_ORIGIN="https://evil.example")
    assert reply.status_code == 200
    assert not [h for h in reply.headers if h.lower().startswith("access-control-")], dict(
        reply.headers
    )


# --- Cache-Control on answers that hold a player's tiles ---------------------------------


def _directives(reply) -> set[str]:
    return {part.strip() for part in reply.headers.get("Cache-Control", "").split(",") if part}


def _stored_nowhere(reply) -> bool:
    return {"no-store", "private"} <= _directives(reply)


@pytest.fixture
def seated(api_client_for, alice, bob):
    from tests.support.api import seated_table

    table_id, clients, tokens = seated_table(api_client_for, [alice, bob])
    return table_id, clients, tokens


def test_the_table_answer_is_private_and_revalidated(seated):
    """GET of the table (your tiles) is ``private, no-cache``: no shared cache keeps it,
    the browser asks again every time, and the ETag still gives 304 (R31)."""
    from tests.support.api import table

    table_id, clients, _ = seated
    reply = clients[0].get(f"/api/v1/tables/{table_id}/")
    assert reply.status_code == 200
    assert {"private", "no-cache"} <= _directives(reply)
    assert "public" not in _directives(reply)
    again = clients[0].get(f"/api/v1/tables/{table_id}/", HTTP_IF_NONE_MATCH=reply["ETag"])
    assert again.status_code == 304
    assert {"private", "no-cache"} <= _directives(again)
    version = table(clients[0], table_id)["version"]
    by_version = clients[0].get(f"/api/v1/tables/{table_id}/", {"since_version": version})
    assert by_version.status_code == 304


def test_every_api_answer_that_may_hold_tiles_is_not_stored(seated, alice):
    """Moves, the log (your own drawn tiles), the record, joining, the list, the profile,
    errors: ``no-store``."""
    from rest_framework.test import APIClient

    from tests.support.api import table

    table_id, clients, tokens = seated
    state = table(clients[0], table_id)
    mover = clients[state["turn_seat"]]
    mine = table(mover, table_id)
    move = mine["game"]["legal_moves"][0]
    answers = {
        "move": mover.post(
            f"/api/v1/tables/{table_id}/moves/",
            {"tile": move["tile"], "end": move["end"], "version": mine["version"]},
            format="json",
        ),
        "refused move": mover.post(
            f"/api/v1/tables/{table_id}/moves/", {"tile": "6-6", "version": 0}, format="json"
        ),
        "log": clients[0].get(f"/api/v1/tables/{table_id}/moves/"),
        "record": clients[0].get(f"/api/v1/tables/{table_id}/record/"),
        "list": clients[0].get("/api/v1/tables/"),
        "me": clients[0].get("/api/v1/me/"),
        "used invite": clients[1].get(f"/api/v1/invites/{tokens[0]}/"),
        "stranger": APIClient().get(f"/api/v1/tables/{table_id}/"),
        "token": APIClient().post(
            "/api/v1/accounts/token/",
            {"username": "alice", "password": "correct-horse-battery-9"},
        ),
    }
    for name, reply in answers.items():
        assert _stored_nowhere(reply), (name, reply.status_code, reply.headers)


def test_joining_answers_are_not_stored(api_client_for, alice, bob):
    from tests.support.api import create_table

    created = create_table(api_client_for(alice), 2, ["friend"])
    joined = api_client_for(bob).post(f"/api/v1/invites/{created['invites'][0]['token']}/join/")
    assert joined.status_code == 200
    assert _stored_nowhere(joined)
    created_reply = api_client_for(alice).post(
        "/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]}, format="json"
    )
    assert created_reply.status_code == 201 and _stored_nowhere(created_reply)


def test_the_table_page_is_not_stored(client, seated, alice):
    table_id, _, _ = seated
    client.force_login(alice)
    page = client.get(f"/mesas/{table_id}/")
    assert page.status_code == 200
    assert _stored_nowhere(page), page.headers
    home = client.get("/")
    assert home.status_code == 200 and _stored_nowhere(home)
