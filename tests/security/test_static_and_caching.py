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
