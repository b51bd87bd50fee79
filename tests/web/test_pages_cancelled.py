"""A table cancelled before its match began (its creator's "Cancelar la mesa" while the
friends' seats were still free) is no finished match. "Partidas terminadas" listed it as
"Mesa 16: con asiento libre (tu pareja) contra asiento libre · Sin ganador: abandonada",
the two free rival seats merged into one name; now it is left out there, and "Mis mesas"
shows it plainly, "Mesa 16 · Cancelada antes de empezar", with no names and no score.
The API's rows say it with ``started`` (false). A free seat is never named as a player:
a waiting table counts them ("con tu pareja (asiento libre) contra 2 asientos libres")."""

import re

import pytest
from django.test import Client

from tables import services
from tables.models import Seat
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _row(page: str, table_id: int) -> str:
    """The text of ``table_id``'s row on a list page, tags dropped, spaces collapsed."""
    start = page.index(f'href="/mesas/{table_id}/">') + len(f'href="/mesas/{table_id}/">')
    row = page[start : page.index("</li>", start)]
    text = " ".join(re.sub(r"<[^>]+>", " ", row).split())
    return text.removeprefix("Novedades: ").removeprefix("New: ")


def _cancelled(alice):
    table = services.table_create(
        creator=alice, seats=4, target=50, others=["friend", "friend", "friend"]
    )
    services.table_abandon(table_id=table.pk, user=alice)
    return table


def test_a_cancelled_table_is_no_finished_match(alice, bob):
    cancelled = _cancelled(alice)
    played = seat_friends(alice, [bob], target=50)
    services.table_abandon(table_id=played.pk, user=alice)
    client = _client(alice)

    history = client.get("/partidas/").content.decode()
    assert f'href="/mesas/{cancelled.pk}/"' not in history
    assert _row(history, played.pk).startswith(f"Mesa {played.pk}: con bob Perdiste")

    home = client.get("/").content.decode()
    assert _row(home, cancelled.pk) == f"Mesa {cancelled.pk} Cancelada antes de empezar"
    assert "asiento libre" not in home

    rows = {row["id"]: row for row in client.get("/api/v1/tables/").json()["results"]}
    assert rows[cancelled.pk]["started"] is False
    assert rows[played.pk]["started"] is True


def test_a_cancelled_table_reads_so_in_english(alice):
    cancelled = _cancelled(alice)
    alice.language = "en"
    alice.save()
    home = _client(alice).get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _row(home, cancelled.pk) == f"Table {cancelled.pk} Cancelled before it began"


def test_free_seats_are_counted_never_named(alice, bob):
    pairs = services.table_create(
        creator=alice, seats=4, target=50, others=["friend", "friend", "friend"]
    )
    three = services.table_create(creator=alice, seats=3, target=50, others=["friend", "nino"])
    services.seat_join(token=Seat.objects.get(table=three, index=1).invite_token, user=bob)
    four = services.table_create(
        creator=alice, seats=4, target=50, others=["nino", "friend", "friend"]
    )
    home = _client(alice).get("/").content.decode()

    title = f"Mesa {pairs.pk}: con tu pareja (asiento libre) contra 2 asientos libres"
    assert _row(home, pairs.pk).startswith(title + " Esperando jugadores")
    assert _row(home, three.pk).startswith(f"Mesa {three.pk}: con bob y Nino ")
    title = f"Mesa {four.pk}: con tu pareja (asiento libre) contra Nino y 1 asiento libre"
    assert _row(home, four.pk).startswith(title)
