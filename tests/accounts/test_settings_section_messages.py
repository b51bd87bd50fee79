"""The settings page's lower forms ("Guardar avisos", "Cerrar las demás sesiones",
"Volver a oír") come back to their own section (``#avisos``, ``#sesiones``,
``#silenciados``), and say that it worked there: at the top of the page, 1,400 px above
what a phone shows after the jump, the confirmation went unseen. The first form
("Guardar", at the top) keeps the page's message list."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from moderation.services import talk_mute
from tests.support.pages import seat_friends, signed_in_client

pytestmark = pytest.mark.django_db


def _section(page: str, section_id: str) -> str:
    """The HTML of the ``<section id=section_id>`` element (sections do not nest)."""
    match = re.search(rf'<section[^>]*id="{section_id}"[^>]*>(.*?)</section>', page, re.S)
    assert match, section_id
    return match.group(1)


def _top_list(page: str) -> str:
    """The page's own message list, before the content (empty when it has none)."""
    match = re.search(r'<ul class="messages"[^>]*>(.*?)</ul>', page, re.S)
    return match.group(1) if match else ""


def _after(client: Client, answer, anchor: str) -> str:
    assert answer.status_code == 302
    assert answer["Location"] == f"/accounts/settings/#{anchor}"
    return client.get(answer["Location"]).content.decode()


def test_saved_notices_are_confirmed_in_the_notices_section(alice):
    client = signed_in_client(alice)
    answer = client.post("/avisos/preferencias/", {"email_your_turn": "on", "time_zone": "UTC"})
    page = _after(client, answer, "avisos")
    section = _section(page, "avisos")
    assert "Avisos guardados." in section
    assert section.index("Avisos guardados.") < section.index("<form")  # under the heading
    assert 'role="status"' in section
    assert "Avisos guardados." not in _top_list(page)
    assert page.count("Avisos guardados.") == 1
    again = client.get("/accounts/settings/").content.decode()
    assert "Avisos guardados." not in again  # said once


def test_signing_out_elsewhere_is_confirmed_in_the_sessions_section(alice):
    client = signed_in_client(alice)
    page = _after(client, client.post("/accounts/settings/sign-out-everywhere/"), "sesiones")
    said = "Se cerraron las demás sesiones"
    assert said in _section(page, "sesiones")
    assert page.count(said) == 1


def test_hearing_a_player_again_is_confirmed_in_the_muted_section(alice, bob):
    table = seat_friends(bob, [alice])
    mute = talk_mute(user=bob, table_id=table.pk, seat=1)
    client = signed_in_client(bob)
    page = _after(client, client.post(f"/charla/silencios/{mute.pk}/quitar/"), "silenciados")
    assert "Vuelves a oír a alice." in _section(page, "silenciados")
    assert page.count("Vuelves a oír a alice.") == 1


def test_the_first_form_keeps_the_pages_message_list(alice):
    client = signed_in_client(alice)
    answer = client.post(
        "/accounts/settings/",
        {"language": "es", "pip_colour": "coloured", "email_notifications": "on"},
    )
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Preferencias guardadas." in _top_list(page)


def test_a_section_message_in_english(alice):
    alice.language = "en"
    alice.save(update_fields=["language"])
    client = signed_in_client(alice)
    client.cookies["django_language"] = "en"
    answer = client.post("/avisos/preferencias/", {"time_zone": "UTC"})
    assert "Notices saved." in _section(_after(client, answer, "avisos"), "avisos")
