"""Ajustes had two places called "Avisos": a fieldset in the first form ("Recibir avisos
por correo (cuáles: más abajo)", saved by "Guardar") and the "Avisos" section below with
its own "Guardar avisos"; a player who changed both and pressed one button lost the
other change. Now one "Avisos" section, one save button, the switch for all e-mail in
it; and its sentences say the server's real timings ("15 minutos", "6 horas", "24
horas" by default), read from the settings, not written into the page."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings

from notices.models import NoticePreferences
from tests.support.pages import signed_in_client

pytestmark = pytest.mark.django_db


def _page(client) -> str:
    return client.get("/accounts/settings/").content.decode()


def test_one_notices_section_with_one_save_button(alice):
    page = _page(signed_in_client(alice))
    assert page.count("<legend>Avisos</legend>") + page.count("<h2>Avisos</h2>") == 1
    section = re.search(
        r'<section class="card notice-preferences" id="avisos">.*?</section>', page, re.S
    )[0]
    assert 'name="email_notifications"' in section and "Recibir avisos por correo" in section
    assert len(re.findall(r'<button type="submit"', section)) == 1
    first_form = page[: page.index('id="avisos"')]
    assert 'name="email_notifications"' not in first_form


def test_the_switch_is_saved_with_the_other_notice_preferences(alice):
    client = signed_in_client(alice)
    answer = client.post("/avisos/preferencias/", {"time_zone": "Europe/Madrid"})  # all unticked
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.email_notifications is False
    assert NoticePreferences.objects.get(user=alice).time_zone == "Europe/Madrid"
    client.post(
        "/avisos/preferencias/",
        {"time_zone": "Europe/Madrid", "email_notifications": "on", "email_your_turn": "on"},
    )
    alice.refresh_from_db()
    assert alice.email_notifications is True


def test_saving_language_and_colour_leaves_the_email_switch_alone(alice):
    client = signed_in_client(alice)
    client.post("/accounts/settings/", {"language": "es", "pip_colour": "black"})
    alice.refresh_from_db()
    assert (alice.pip_colour, alice.email_notifications) == ("black", True)


def test_the_sentences_say_the_servers_timings(alice):
    page = _page(signed_in_client(alice))
    assert "si no lo has visto en 15 minutos; como mucho uno cada 6 horas" in page
    assert "Se acaba tu tiempo (24 horas antes de perder por ausencia" in page
    with override_settings(
        TURN_EMAIL_DELAY_SECONDS=1800, TURN_EMAIL_MIN_INTERVAL_SECONDS=3600, REMINDER_SECONDS=43200
    ):
        page = _page(signed_in_client(alice))
    assert "si no lo has visto en 30 minutos; como mucho uno cada 1 hora)" in page
    assert "Se acaba tu tiempo (12 horas antes de perder por ausencia" in page


def test_in_english(carol):
    client = signed_in_client(carol)
    client.cookies["django_language"] = "en"
    page = _page(client)
    assert "if you have not seen it in 15 minutes; at most one every 6 hours" in page
    assert "Receive notices by e-mail" in page
