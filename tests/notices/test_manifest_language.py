"""The web app manifest speaks one language and says which: its description came in the
request's language while its ``lang`` always said "es" (an English browser installed
"Correspondence dominoes: …" marked as Spanish). A cache must keep the two apart."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("header", "lang", "description"),
    [
        ("es", "es", "Dominó por correspondencia: juega tu turno cuando quieras."),
        ("en-GB,en;q=0.9", "en", "Correspondence dominoes: play your turn whenever you like."),
        ("fr", "es", "Dominó por correspondencia: juega tu turno cuando quieras."),
    ],
)
def test_the_description_is_in_the_manifests_language(client, header, lang, description):
    manifest = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=header)
    body = manifest.json()
    assert (body["lang"], body["description"]) == (lang, description)
    assert "Accept-Language" in manifest["Vary"] and "Cookie" in manifest["Vary"]


def test_the_language_cookie_chooses_it_too(client):
    client.cookies["django_language"] = "en"
    body = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="es").json()
    assert body["lang"] == "en" and body["description"].startswith("Correspondence dominoes")
