"""The admin is the site's: its pages' titles and header said "Sitio de administración de
Django" / "Administración de Django" ("Django site admin" in English), a name no
moderator knows the service by."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _title_and_header(html: str) -> tuple[str, str]:
    title = re.search(r"<title>(.*?)</title>", html, re.S)[1].strip()
    header = re.search(r'<div id="site-name"><a [^>]*>(.*?)</a>', html, re.S)[1].strip()
    return title, header


@pytest.mark.parametrize(
    ("language", "title", "header"),
    [
        ("es", "Administración del sitio | Dominó · administración", "Dominó · administración"),
        ("en", "Site administration | Dominó · admin", "Dominó · admin"),
    ],
)
def test_the_admins_title_and_header_name_the_site(mod, language, title, header):
    mod.language = language
    mod.save(update_fields=["language"])
    client = Client()
    client.force_login(mod)
    client.cookies["django_language"] = language
    index = client.get("/admin/").content.decode()
    assert _title_and_header(index) == (title, header)
    reports = client.get("/admin/moderation/report/").content.decode()
    assert _title_and_header(reports)[1] == header
    assert "Django" not in _title_and_header(reports)[0]
