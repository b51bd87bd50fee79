"""Content-Security-Policy (issue 13, hardening): every page, API answer, error page and
admin page carries the policy; it allows no inline script, inline style or eval; and no
page we serve needs them: no inline ``<script>`` (the table page's data is in
``json_script`` blocks, ``type="application/json"``), no ``on…=`` handler, no ``style=``
attribute. Chromium's view of it is tests/web/test_browser_csp.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tables import services
from tables.models import Seat
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle\s*=", re.I)
STYLE_TAG = re.compile(r"<style\b", re.I)


def directives(header: str) -> dict[str, str]:
    """``"a x; b y z"`` -> ``{"a": "x", "b": "y z"}``."""
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def assert_no_inline_code(html: str, where: str) -> None:
    for attributes in SCRIPT_TAG.findall(html):
        assert "src=" in attributes or 'type="application/json"' in attributes, (where, attributes)
    assert not HANDLER.search(html), where
    assert not STYLE_ATTRIBUTE.search(html), where
    assert not STYLE_TAG.search(html), where


def pages(alice, bob) -> dict[str, list[str]]:
    """Paths to fetch, by who fetches them: every browser page, some API answers, errors."""
    table = seat_friends(alice, [bob])
    waiting = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    token = Seat.objects.get(table=waiting, index=1).invite_token
    return {
        "anonymous": [
            "/",  # redirects to sign in
            "/accounts/login/",
            "/accounts/signup/",
            "/reglas/",
            "/reglas/perfiles/",
            f"/invitacion/{token}/",
            "/invitacion/no-such-link/",
            "/api/v1/docs/",
            "/api/v1/docs/?script=",
            "/api/v1/schema/",
            "/api/v1/tables/",  # 401/403 JSON
            "/no-such-page/",  # 404
            "/admin/login/",
        ],
        "alice": [
            "/",
            "/mesas/nueva/",
            f"/mesas/{table.pk}/",
            f"/mesas/{waiting.pk}/",
            "/accounts/settings/",
            "/api/v1/me/",
            f"/api/v1/tables/{table.pk}/",
            f"/api/v1/tables/{table.pk}/moves/",
        ],
        "staff": [
            "/admin/",
            "/admin/tables/table/",
            f"/admin/tables/table/{table.pk}/change/",
            "/admin/accounts/user/",
        ],
    }


def test_every_page_answers_with_the_policy(client, django_user_model, alice, bob):
    staff = django_user_model.objects.create_superuser("root", "root@example.com", "x-pass-123")
    users = {"anonymous": None, "alice": alice, "staff": staff}
    fetched = 0
    for who, paths in pages(alice, bob).items():
        client.logout()
        if users[who]:
            client.force_login(users[who])
        for path in paths:
            reply = client.get(path)
            assert reply.status_code < 500, (who, path, reply.status_code)
            header = reply.headers.get("Content-Security-Policy")
            assert header, (who, path, reply.status_code)
            if path.startswith("/api/v1/docs/"):
                # Swagger UI draws its icons as data: images; only its page allows them.
                assert directives(header)["img-src"] == "'self' data:", header
                assert directives(header)["script-src"] == "'self'", header
            else:
                assert directives(header) == POLICY, (who, path)
            if "text/html" in reply.headers.get("Content-Type", ""):
                assert_no_inline_code(reply.content.decode(), f"{who} {path}")
            fetched += 1
    assert fetched == 25


def test_a_post_and_a_refusal_carry_it_too(api_client_for, alice):
    client = api_client_for(alice)
    created = client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]})
    refused = client.post("/api/v1/tables/", {"seats": 9}, format="json")
    assert created.status_code == 201 and refused.status_code == 400
    for reply in (created, refused):
        assert directives(reply.headers["Content-Security-Policy"]) == POLICY


def test_no_unsafe_source_is_allowed():
    for sources in settings.CONTENT_SECURITY_POLICY["DIRECTIVES"].values():
        for source in sources:
            assert "unsafe" not in source and source not in ("*", "data:", "http:", "https:")


def test_no_template_has_inline_script_or_style():
    """Our own templates (the e-mails are not pages: no browser runs them under the policy)."""
    root = Path(settings.BASE_DIR) / "templates"
    checked = 0
    for template in root.rglob("*.html"):
        if "email" in template.relative_to(root).parts:
            continue
        text = template.read_text(encoding="utf-8")
        # {{ x|json_script:"id" }} renders <script type="application/json">: data.
        assert_no_inline_code(text, str(template))
        checked += 1
    assert checked >= 10
