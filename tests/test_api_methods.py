"""Every API path's 405 tells the truth (RFC 9110, 15.5.6 and 10.2.1): a method the path
does not answer is ``405 method_not_allowed`` in the error contract, and its ``Allow``
header lists only methods the path does answer (none of them a 405 in turn).

The paths come from the URL patterns themselves, so a new endpoint is checked without
being named here. A path's ``<int:...>`` is filled with 1 and a ``<str:...>`` with
``x``: most then answer 404 or 400, which is an answer, not a refusal of the method."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

#: Every method DRF and Django dispatch on, but CONNECT (a proxy's).
METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE")


def _routes(patterns, prefix: str = ""):
    """``(route, callback)`` for every URL pattern under ``patterns``, resolvers opened."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.callback


def _api_paths() -> list[str]:
    """Every API endpoint's path with its parameters filled in (the catch-all ``^api/``,
    the JSON 404 of unknown paths, left out: tests/test_api_paths.py)."""
    filled = {"int": "1", "str": "x"}
    paths = []
    for route, _callback in _routes(get_resolver().url_patterns):
        if not route.startswith("api/"):
            continue
        path = re.sub(r"<(\w+):\w+>", lambda match: filled[match[1]], route)
        paths.append("/" + path)
    return paths


def _send(client, method: str, path: str, body: str = ""):
    return client.generic(method, path, body, content_type="application/json")


@pytest.mark.parametrize("path", _api_paths())
def test_each_method_a_path_refuses_is_a_json_405_and_its_allow_is_true(
    path, alice, api_client_for, generous_rates
):
    """Signed in (DRF refuses a method after authentication), every answer of the path
    names the same ``Allow``; each method it does not list is ``405 method_not_allowed``
    in JSON, even sent with a body a write there would refuse, and each method it lists
    is answered (not 405). Each request has a fresh token: logging out revokes it."""
    answers = {
        method: _send(api_client_for(alice), method, path, '{"bogus": 1}') for method in METHODS
    }
    allows = {answer["Allow"] for answer in answers.values() if answer.has_header("Allow")}
    assert len(allows) == 1, allows  # one truth for the path, whoever answered
    listed = allows.pop().split(", ")
    for method, answer in answers.items():
        if method in listed:
            answer = _send(api_client_for(alice), method, path)  # without the body
            assert answer.status_code != 405, (method, answer.content[:200])
            continue
        assert answer.status_code == 405, (method, answer.status_code, answer.content[:200])
        assert answer["Content-Type"] == "application/json", method
        if method != "HEAD":  # a HEAD answer has no body
            assert answer.json()["code"] == "method_not_allowed", method
