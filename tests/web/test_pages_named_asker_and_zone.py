"""Two pages that said less than the inbox: "Partidas terminadas" wrote its dates in the
player's zone without naming it (the inbox says "Fechas en hora de America/Havana."), and
"Mis mesas" showed a rematch offer as "Te proponen la revancha" without saying who asked
(the inbox and the e-mail say "bob te propone la revancha en la mesa 12"); the settings'
switch for that e-mail did not say the e-mail names them either."""

from __future__ import annotations

import pytest

from notices.models import NoticePreferences
from tables import services
from tests.support.pages import seat_friends, signed_in_client

pytestmark = pytest.mark.django_db


def _finished(alice, bob) -> int:
    table = seat_friends(alice, [bob], target=50)
    services.table_abandon(table_id=table.pk, user=alice)
    return table.pk


def test_the_history_names_the_zone_of_its_dates(alice, bob):
    _finished(alice, bob)
    page = signed_in_client(alice).get("/partidas/").content.decode()
    assert '<p class="time-zone-note">Fechas en hora de UTC.</p>' in page
    NoticePreferences.objects.create(user=alice, time_zone="America/Havana", time_zone_chosen=True)
    page = signed_in_client(alice).get("/partidas/").content.decode()
    assert '<p class="time-zone-note">Fechas en hora de America/Havana.</p>' in page


def test_the_history_names_it_in_english(carol, bob):
    _finished(carol, bob)
    page = signed_in_client(carol).get("/partidas/").content.decode()
    assert '<p class="time-zone-note">Dates in UTC time.</p>' in page


def test_my_tables_says_who_offers_the_rematch(alice, bob, mallory):
    rematch = services.rematch_offer(table_id=_finished(alice, bob), user=bob)
    home = signed_in_client(alice).get("/").content.decode()
    assert f"/mesas/{rematch.pk}/" in home
    assert '<strong class="badge turn">bob te propone la revancha</strong>' in home
    asker = signed_in_client(bob).get("/").content.decode()  # bob waits for alice's answer
    assert "te propone la revancha" not in asker
    assert f"/mesas/{rematch.pk}/" not in signed_in_client(mallory).get("/").content.decode()


def test_the_settings_switch_says_the_email_names_who_asked(alice):
    page = signed_in_client(alice).get("/accounts/settings/").content.decode()
    assert (
        "Alguien te propone la revancha (el correo dice quién: «ana te propone la revancha»)"
        in page
    )
