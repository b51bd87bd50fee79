"""A guest who gives up their seat at a waiting table ("Dejar el asiento": the abandon
API answers ``{left: true}``) lands on "Mis mesas", which now says so, "Dejaste tu
asiento en la mesa N.": the page's script goes through ``/mesas/N/asiento-dejado/``,
which says it only to someone no longer seated there, and only when the page itself sent
them (a link from elsewhere just goes home)."""

from __future__ import annotations

import pytest
from django.test import Client

from tables import services
from tables.models import Seat
from tests.support.pages import signed_in_client

pytestmark = pytest.mark.django_db

SAME_SITE = {"HTTP_SEC_FETCH_SITE": "same-origin"}


def _waiting_with(alice, bob):
    table = services.table_create(creator=alice, seats=3, others=["friend", "friend"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    return table


def test_the_guest_who_left_is_told_on_the_home_page(alice, bob):
    table = _waiting_with(alice, bob)
    client = signed_in_client(bob)
    page = client.get(f"/mesas/{table.pk}/").content.decode()
    assert f'data-left="/mesas/{table.pk}/asiento-dejado/"' in page
    services.table_abandon(table_id=table.pk, user=bob)  # what the API does
    answer = client.get(f"/mesas/{table.pk}/asiento-dejado/", **SAME_SITE)
    assert answer.status_code == 302 and answer["Location"] == "/"
    home = client.get("/").content.decode()
    assert f"Dejaste tu asiento en la mesa {table.pk}." in home
    assert "Dejaste tu asiento" not in client.get("/").content.decode()  # said once


def test_in_english(alice, bob):
    table = _waiting_with(alice, bob)
    services.table_abandon(table_id=table.pk, user=bob)
    client = signed_in_client(bob)
    client.cookies["django_language"] = "en"
    client.get(f"/mesas/{table.pk}/asiento-dejado/", **SAME_SITE)
    assert f"You left your seat at table {table.pk}." in client.get("/").content.decode()


def test_no_such_sentence_for_someone_still_seated_or_sent_from_elsewhere(alice, bob, carol):
    table = _waiting_with(alice, bob)
    seated = signed_in_client(bob)
    answer = seated.get(f"/mesas/{table.pk}/asiento-dejado/", **SAME_SITE)
    assert answer.status_code == 302 and answer["Location"] == f"/mesas/{table.pk}/"
    assert "Dejaste tu asiento" not in seated.get("/").content.decode()
    services.table_abandon(table_id=table.pk, user=bob)
    for headers in ({"HTTP_SEC_FETCH_SITE": "cross-site"}, {"HTTP_SEC_FETCH_SITE": "none"}):
        answer = seated.get(f"/mesas/{table.pk}/asiento-dejado/", **headers)
        assert answer["Location"] == "/"
        assert "Dejaste tu asiento" not in seated.get("/").content.decode()
    stranger = signed_in_client(carol)  # never sat there: a link someone sent
    assert stranger.get("/mesas/999999/asiento-dejado/", **SAME_SITE)["Location"] == "/"
    assert "Dejaste tu asiento" not in stranger.get("/").content.decode()
    assert Client().get(f"/mesas/{table.pk}/asiento-dejado/").status_code == 302  # sign in
    assert seated.post(f"/mesas/{table.pk}/asiento-dejado/").status_code == 405
