"""A path parameter holding a NUL or another control character is a 404, never a 500:
``GET /partida/%00/`` reached PostgreSQL with the NUL and answered 500 (issue: hardening
II, item 4). Every route of the site with a text parameter is walked, anonymous and
signed in; and personal pages are never kept by a cache (item 10)."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

pytestmark = pytest.mark.django_db

CONTROL_CHARACTERS = ["%00", "a%00b", "%01", "x%1Fy", "%7F"]
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _routes(patterns=None, prefix=""):
    """Every route pattern (``"partida/<str:token>/"``) of the site's URLconf, whole."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = str(pattern.pattern) if isinstance(pattern.pattern, RoutePattern) else None
        if isinstance(pattern, URLResolver):
            if route is not None:
                yield from _routes(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern) and route is not None:
            yield prefix + route


def _text_parameter_paths():
    paths = []
    for route in _routes():
        converters = [match["converter"] or "str" for match in PARAMETER.finditer(route)]
        if not any(converter in ("str", "slug", "path") for converter in converters):
            continue
        for characters in CONTROL_CHARACTERS:
            path = PARAMETER.sub(
                lambda match, text=characters: "1" if match["converter"] == "int" else text,
                route,
            )
            paths.append("/" + path)
    return paths


TEXT_PARAMETER_PATHS = _text_parameter_paths()


def test_the_walk_finds_the_public_replay_routes():
    assert "/partida/%00/" in TEXT_PARAMETER_PATHS
    assert "/partida/a%00b/registro/" in TEXT_PARAMETER_PATHS


@pytest.mark.parametrize("path", TEXT_PARAMETER_PATHS)
def test_a_control_character_in_a_path_parameter_is_a_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/partida/%00/", "/partida/a%00b/registro/", "/api/v1/%00/"])
def test_signed_in_too_and_in_the_error_contract(client, alice, path):
    client.force_login(alice)
    reply = client.get(path)
    assert reply.status_code == 404
    if path.startswith("/api/"):
        assert reply.json()["code"] == "not_found"


PERSONAL_PAGES = [
    "/accounts/settings/",
    "/accounts/email/",
    "/avisos/",
    "/avisos/preferencias/",
]


@pytest.mark.parametrize("path", PERSONAL_PAGES)
def test_personal_pages_are_never_stored(client, alice, path):
    client.force_login(alice)
    reply = client.get(path)
    assert reply.status_code == 200
    assert "no-store" in reply.headers.get("Cache-Control", "")
    assert "private" in reply.headers["Cache-Control"]


def test_the_data_download_is_never_stored(client, alice):
    from django.urls import reverse

    client.force_login(alice)
    reply = client.get(reverse("accounts:download_data"))
    assert reply.status_code == 200
    assert "no-store" in reply.headers.get("Cache-Control", "")


def test_a_signed_out_page_is_not_marked_private(client):
    assert "no-store" not in client.get("/reglas/").headers.get("Cache-Control", "")


@pytest.mark.parametrize("version", [10**30, 2**63, -1])
def test_a_version_past_what_the_database_stores_is_invalid(api_client_for, alice, version):
    """``version: 10**30`` was a 409 stale_version: it is bad input, a 400 with a field."""
    from tests.support.database import bot_table_on_human_turn, fresh

    table = bot_table_on_human_turn(alice)
    reply = api_client_for(alice).post(
        f"/api/v1/tables/{table.pk}/moves/", {"tile": "6-6", "version": version}, format="json"
    )
    assert reply.status_code == 400
    assert reply.json()["code"] == "invalid"
    assert "version" in reply.json()["fields"]
    assert fresh(table.pk).version == table.version
