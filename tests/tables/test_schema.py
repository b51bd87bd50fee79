"""The OpenAPI schema (drf-spectacular) is valid and served."""

import pytest
from django.core.management import call_command
from django.test import Client

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


def _session_client(user, *, csrf_token: bool) -> Client:
    """A browser's session for ``user``, checked for CSRF as a real one is; with
    ``csrf_token`` it sends the session's token back, as a page's script would."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    if csrf_token:
        client.get("/")  # the page sets the csrftoken cookie
        client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    return client


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/schema/"])
@pytest.mark.parametrize("who", ["anonymous", "session", "session_with_csrf", "token"])
def test_the_docs_and_the_schema_answer_any_other_method_405_in_json(
    path, who, alice, api_client_for
):
    """They only read: any other method is the API's JSON 405, as on every endpoint, never
    the pages' HTML "No puedes entrar aquí" (a session without a CSRF token), a YAML
    error or a 500 (``OPTIONS`` on the docs had no template)."""
    clients = {
        "anonymous": lambda: Client(enforce_csrf_checks=True),
        "session": lambda: _session_client(alice, csrf_token=False),
        "session_with_csrf": lambda: _session_client(alice, csrf_token=True),
        "token": lambda: api_client_for(alice),
    }
    client = clients[who]()
    for method in ("post", "put", "patch", "delete", "options"):
        answer = getattr(client, method)(path, "{}", content_type="application/json")

        assert answer.status_code == 405, (method, answer.content[:200])
        assert answer["Content-Type"] == "application/json", method
        assert answer["Allow"] == "GET, HEAD", method
        detail = f'Método "{method.upper()}" no permitido.'
        assert answer.json() == {"code": "method_not_allowed", "detail": detail}
    assert client.head(path).status_code == 200


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/schema/"])
def test_the_docs_and_the_schema_allow_only_what_they_answer(path, client):
    """Their ``GET`` said ``Allow: GET, HEAD, OPTIONS`` (DRF's, from the view) while
    ``OPTIONS`` was a 405: every answer now lists what the path answers (RFC 9110), each
    method listed is answered, and one not listed is a 405 with the same header."""
    listed = client.get(path)["Allow"]
    assert listed == "GET, HEAD"
    for method in listed.split(", "):
        answer = client.generic(method, path)
        assert (answer.status_code, answer["Allow"]) == (200, listed), method
    refused = client.options(path)
    assert (refused.status_code, refused["Allow"]) == (405, listed)
