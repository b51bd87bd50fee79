"""The OpenAPI schema (drf-spectacular) is valid and served."""

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_it_validates_the_schema_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    text = (tmp_path / "s.yml").read_text()
    assert "/api/v1/tables/{table_id}/moves/" in text


def test_it_serves_the_schema_and_the_docs(client):
    assert client.get("/api/v1/schema/").status_code == 200
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    # Swagger UI comes from our own static files (drf-spectacular-sidecar), not a CDN.
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn." not in page and "jsdelivr" not in page
