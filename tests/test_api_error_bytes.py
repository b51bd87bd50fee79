"""Every JSON error is written by one writer, byte for byte the shape of DRF's renderer:
the answers made outside DRF (an unknown endpoint's 404, the 413 of a body past the limit,
a read-only path's 405) and DRF's own (a 400, a 429) share their keys' order, compact
separators, the ``Content-Type`` and UTF-8 text written as itself ("petición", not
"petici\\u00f3n")."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from tests.support.api import create_table


def _compact(body: bytes) -> bytes:
    """``body`` parsed and written again as DRF's JSONRenderer writes it."""
    return json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":")).encode()


def _assert_the_one_shape(reply, status: int, code: str) -> dict:
    assert reply.status_code == status, reply.content
    assert reply["Content-Type"] == "application/json"
    assert reply.content == _compact(reply.content)
    data = json.loads(reply.content)
    assert list(data)[:2] == ["code", "detail"]
    assert data["code"] == code
    return data


@pytest.fixture
def one_table_a_minute(monkeypatch):
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "tables": "1/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


@pytest.mark.django_db
def test_the_errors_outside_drf_are_written_as_drf_writes_its_own(
    anonymous_client, api_client_for, alice, one_table_a_minute
):
    malformed = anonymous_client.post(
        "/api/v1/accounts/token/", b'{"user', content_type="application/json"
    )
    drf = _assert_the_one_shape(malformed, 400, "malformed_json")
    assert "petición".encode() in malformed.content  # DRF writes UTF-8 as itself

    alices = api_client_for(alice)
    create_table(alices, 2, ["nino"])
    throttled = alices.post("/api/v1/tables/", {"seats": 2, "others": ["nino"]}, format="json")
    _assert_the_one_shape(throttled, 429, "throttled")

    unknown = anonymous_client.get("/api/v1/no-such-thing/")
    _assert_the_one_shape(unknown, 404, "not_found")

    too_large = anonymous_client.post(
        "/api/v1/accounts/token/",
        b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1),
        content_type="application/json",
    )
    _assert_the_one_shape(too_large, 413, "request_too_large")
    assert "petición".encode() in too_large.content
    assert b"\\u" not in too_large.content

    not_allowed = anonymous_client.post("/api/v1/schema/")
    _assert_the_one_shape(not_allowed, 405, "method_not_allowed")
    assert malformed["Content-Type"] == too_large["Content-Type"] == unknown["Content-Type"]
    assert set(drf) == {"code", "detail", "reason"}
