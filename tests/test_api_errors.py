"""The error contract every API client relies on: {"code", "detail", ...} as JSON."""

import pytest
from django.http import Http404
from rest_framework import exceptions

from core.api_errors import api_exception_handler


class SeatTaken(exceptions.APIException):
    status_code = 409
    code = "seat_taken"
    rule = "R7"
    default_detail = "That seat is taken."


def test_it_keeps_a_domain_exceptions_code_and_rule():
    r = api_exception_handler(SeatTaken(), {})

    assert r.status_code == 409
    assert r.data == {"code": "seat_taken", "detail": "That seat is taken.", "rule": "R7"}


def test_it_adds_an_exceptions_extra_fields():
    exc = SeatTaken()
    exc.extra = {"version": 7}

    assert api_exception_handler(exc, {}).data["version"] == 7


def test_it_maps_http404_to_not_found():
    r = api_exception_handler(Http404("No Table matches"), {})

    assert (r.status_code, r.data["code"]) == (404, "not_found")


def test_it_keeps_a_code_given_to_a_drf_exception():
    r = api_exception_handler(exceptions.PermissionDenied("Not seated.", code="not_seated"), {})

    assert (r.status_code, r.data) == (403, {"code": "not_seated", "detail": "Not seated."})


def test_it_puts_a_list_validation_error_under_non_field_errors():
    r = api_exception_handler(exceptions.ValidationError("Bad move."), {})

    assert r.data["code"] == "invalid"
    assert r.data["detail"] == "Bad move."
    assert r.data["fields"] == {"non_field_errors": ["Bad move."]}


def test_it_leaves_other_exceptions_to_django():
    assert api_exception_handler(ValueError("boom"), {}) is None


@pytest.mark.django_db
def test_an_unknown_api_url_is_a_json_404(anonymous_client):
    r = anonymous_client.get("/api/v1/no-such-thing/")

    assert r.status_code == 404
    assert r.json()["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/tables/-1/", "/api/v1/tables/abc/", "/api/v1/zzz/"])
def test_an_unknown_api_url_is_a_json_404_with_debug_on_too(anonymous_client, settings, path):
    """Under ``make run`` (DEBUG on) these were Django's HTML debug page."""
    settings.DEBUG = True
    r = anonymous_client.get(path)

    assert r.status_code == 404
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == "not_found"


@pytest.mark.django_db
def test_a_too_large_body_is_a_json_413(api_client_for, alice, settings):
    body = '{"email": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + '"}'

    r = api_client_for(alice).generic("PATCH", "/api/v1/me/", body, content_type="application/json")

    assert r.status_code == 413
    assert r.json()["code"] == "request_too_large"
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


@pytest.mark.django_db
def test_a_too_large_login_form_is_a_413(client, settings):
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)

    r = client.post("/accounts/login/", {"username": big, "password": "p"})

    assert r.status_code == 413
