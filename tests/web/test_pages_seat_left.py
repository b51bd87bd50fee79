"""A guest who gives up their seat at a waiting table ("Dejar el asiento": the abandon
API answers ``{left: true}``) lands on "Mis mesas", which now says so, "Dejaste tu
asiento en la mesa N.": the page's script goes through ``/mesas/N/asiento-dejado/``,
which says it only to the person who gave up that seat (the abandon API marked their
session), and only when the page itself sent them (a link from elsewhere just goes home).
Anyone else, signed in or not, seated there or not, got the same sentence or a redirect
for any table id; now the address is a 404 for them."""

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


def _leave(client, table):
    """What the table page's "Dejar el asiento" sends, with the browser's session."""
    return client.post(f"/api/v1/tables/{table.pk}/abandon/", content_type="application/json")


def test_the_guest_who_left_is_told_on_the_home_page(alice, bob):
    table = _waiting_with(alice, bob)
    client = signed_in_client(bob)
    page = client.get(f"/mesas/{table.pk}/").content.decode()
    assert f'data-left="/mesas/{table.pk}/asiento-dejado/"' in page
    assert _leave(client, table).json()["left"] is True
    answer = client.get(f"/mesas/{table.pk}/asiento-dejado/", **SAME_SITE)
    assert answer.status_code == 302 and answer["Location"] == "/"
    home = client.get("/").content.decode()
    assert f"Dejaste tu asiento en la mesa {table.pk}." in home
    assert "Dejaste tu asiento" not in client.get("/").content.decode()  # said once
    assert client.get(f"/mesas/{table.pk}/asiento-dejado/", **SAME_SITE).status_code == 404


def test_in_english(alice, bob):
    table = _waiting_with(alice, bob)
    client = signed_in_client(bob)
    client.cookies["django_language"] = "en"
    _leave(client, table)
    client.get(f"/mesas/{table.pk}/asiento-dejado/", **SAME_SITE)
    assert f"You left your seat at table {table.pk}." in client.get("/").content.decode()


def test_sent_from_elsewhere_it_goes_home_without_the_sentence(alice, bob):
    table = _waiting_with(alice, bob)
    seated = signed_in_client(bob)
    _leave(seated, table)
    for headers in ({"HTTP_SEC_FETCH_SITE": "cross-site"}, {"HTTP_SEC_FETCH_SITE": "none"}):
        answer = seated.get(f"/mesas/{table.pk}/asiento-dejado/", **headers)
        assert answer["Location"] == "/"
        assert "Dejaste tu asiento" not in seated.get("/").content.decode()
    assert seated.post(f"/mesas/{table.pk}/asiento-dejado/").status_code == 405


def test_anyone_but_the_one_who_left_gets_404(alice, bob, carol, mallory):
    """alice (the creator, still seated), carol (another guest, still seated), mallory
    (never there), someone signed out, and bob left by a service call (no browser of his
    was told): none reads "Dejaste tu asiento"; each gets 404."""
    table = services.table_create(creator=alice, seats=4, others=["friend"] * 3)
    for index, user in ((1, bob), (2, carol)):
        services.seat_join(token=Seat.objects.get(table=table, index=index).invite_token, user=user)
    assert _leave(signed_in_client(bob), table).json()["left"] is True
    address = f"/mesas/{table.pk}/asiento-dejado/"
    for user in (alice, carol, mallory):
        client = signed_in_client(user)
        assert client.get(address, **SAME_SITE).status_code == 404, user
        assert "Dejaste tu asiento" not in client.get("/").content.decode()
    assert Client().get(address, **SAME_SITE).status_code == 404
    assert signed_in_client(bob).get("/mesas/999999/asiento-dejado/").status_code == 404
    other = _waiting_with(alice, mallory)
    services.table_abandon(table_id=other.pk, user=mallory)  # not through her browser
    assert signed_in_client(mallory).get(f"/mesas/{other.pk}/asiento-dejado/").status_code == 404
