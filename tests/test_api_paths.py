"""An API path without its final slash, or one that does not exist, is a JSON 404 in the
error contract: never a redirect that would turn a POSTed move into a GET, and never a
500 (Django's APPEND_SLASH raises for a POST when DEBUG is on)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
def test_a_move_posted_without_the_trailing_slash_is_a_json_404(
    api_client_for, alice, settings, debug
):
    settings.DEBUG = debug
    reply = api_client_for(alice).post("/api/v1/tables/3/moves", {"tile": "6-6", "version": 1})
    assert reply.status_code == 404  # not a redirect, not a 500
    if not debug:  # with DEBUG, Django shows its own 404 page instead of handler404
        assert reply.json()["code"] == "not_found"


def test_an_unknown_api_path_is_a_json_404(api_client_for, alice):
    reply = api_client_for(alice).get("/api/v1/nope/")
    assert (reply.status_code, reply.json()["code"]) == (404, "not_found")


def test_pages_keep_the_trailing_slash_redirect(client):
    reply = client.get("/reglas")
    assert (reply.status_code, reply.headers["Location"]) == (301, "/reglas/")
