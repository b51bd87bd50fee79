"""The settings page's "Jugadores silenciados": bob mutes alice from a table's talk and
hears her again from his settings, with a plain form; mallory cannot undo bob's mute,
and a table's mute is not listed as a player."""

from __future__ import annotations

import pytest
from django.test import Client

from moderation.models import TalkMute
from moderation.services import talk_mute
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db


def _page_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_bob_sees_whom_he_muted_and_hears_alice_again(alice, bob, carol):
    table = seat_friends(bob, [alice, carol])
    heard = talk_mute(user=bob, table_id=table.pk, seat=1)  # alice
    talk_mute(user=bob, table_id=table.pk)  # the table's talk: not a player
    page = _page_of(bob)

    settings = page.get("/accounts/settings/").content.decode()
    assert 'id="silenciados"' in settings and "Jugadores silenciados" in settings
    assert '<span class="name">alice</span>' in settings
    assert "carol" not in settings.split('id="silenciados"')[1]
    assert f'action="/charla/silencios/{heard.pk}/quitar/"' in settings

    answer = page.post(f"/charla/silencios/{heard.pk}/quitar/")
    assert answer.status_code == 302
    assert answer["Location"] == "/accounts/settings/#silenciados"
    assert not TalkMute.objects.filter(pk=heard.pk).exists()
    after = page.get(answer["Location"]).content.decode()
    assert "Vuelves a oír a alice." in after
    assert "No has silenciado a nadie." in after
    assert TalkMute.objects.filter(user=bob, table=table).exists()  # the table's stays


def test_the_section_in_english(alice, bob):
    table = seat_friends(bob, [alice])
    talk_mute(user=bob, table_id=table.pk, seat=1)
    bob.language = "en"
    bob.save()
    page = _page_of(bob)
    page.cookies["django_language"] = "en"
    settings = page.get("/accounts/settings/").content.decode()
    assert "Muted players" in settings and ">Unmute</button>" in settings


def test_mallory_cannot_undo_bobs_mute_and_a_get_changes_nothing(alice, bob, mallory):
    table = seat_friends(bob, [alice])
    mute = talk_mute(user=bob, table_id=table.pk, seat=1)
    assert _page_of(mallory).post(f"/charla/silencios/{mute.pk}/quitar/").status_code == 404
    assert _page_of(bob).get(f"/charla/silencios/{mute.pk}/quitar/").status_code == 405
    assert Client().post(f"/charla/silencios/{mute.pk}/quitar/").status_code == 302  # sign in
    assert _page_of(bob).post("/charla/silencios/999999/quitar/").status_code == 404
    assert TalkMute.objects.filter(pk=mute.pk).exists()
