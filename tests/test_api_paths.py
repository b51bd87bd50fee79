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


UNKNOWN_PATHS = ["/api/v1/tables/1/movez/", "/api/v2/tables/1/moves/", "/api/v1/tables/1/moves"]
WRITES = ["POST", "PUT", "PATCH", "DELETE"]


def _signed_in_browser(user):
    """A session-cookie client that checks CSRF as a browser's requests are checked, with
    the CSRF cookie set (a page was opened) but no ``X-CSRFToken`` sent."""
    from rest_framework.test import APIClient

    from tests.conftest import PASSWORD

    browser = APIClient(enforce_csrf_checks=True)
    assert browser.login(username=user.username, password=PASSWORD)
    browser.get("/")
    return browser


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("path", UNKNOWN_PATHS)
@pytest.mark.parametrize("auth", ["token", "session"])
def test_every_method_on_an_unknown_api_path_is_the_json_404(
    api_client_for, alice, settings, debug, path, auth
):
    """A write to an unknown path was the site's HTML "La página ha caducado" (403): the
    CSRF check ran before the unknown endpoint, which changes nothing, could answer. With
    a token (no cookie at all) and with a session cookie, every method gets the 404."""
    settings.DEBUG = debug
    client = api_client_for(alice) if auth == "token" else _signed_in_browser(alice)
    client.handler.enforce_csrf_checks = True

    for method in ["GET", "OPTIONS", *WRITES]:
        reply = client.generic(method, path, '{"tile": "6-6"}', content_type="application/json")
        assert reply.status_code == 404, (method, reply.status_code, reply.content[:200])
        assert reply["Content-Type"].startswith("application/json"), method
        assert reply.json()["code"] == "not_found", method
    assert client.head(path).status_code == 404


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]}),
        ("patch", "/api/v1/me/", {"pip_colour": "black"}),
        ("post", "/api/v1/accounts/logout/", {}),
        ("delete", "/api/v1/push/subscriptions/", {"endpoint": "https://push.example/x"}),
    ],
)
def test_the_real_endpoints_still_check_a_sessions_csrf_token(alice, method, path, body):
    """The unknown endpoint answers without the CSRF check; the real ones keep it for a
    session (DRF's SessionAuthentication): without ``X-CSRFToken``, 403 ``csrf_failed``."""
    browser = _signed_in_browser(alice)

    reply = getattr(browser, method)(path, body, format="json")

    assert (reply.status_code, reply.json()["code"]) == (403, "csrf_failed")
    alice.refresh_from_db()
    assert alice.pip_colour != "black" and browser.get("/api/v1/me/").status_code == 200
