"""Home: "my tables", my turn first, with time left, status and scores."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import Table
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db


def test_it_sends_anonymous_visitors_to_login(client):
    r = client.get("/")

    assert r.status_code == 302
    assert r.headers["Location"].startswith("/accounts/login/?next=/")


def test_it_lists_my_tables_with_my_turn_first(client, alice, bob, carol):
    waiting = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    playing = seat_friends(alice, [bob])
    other = seat_friends(carol, [bob])  # alice does not sit here
    mine_first = playing if playing.turn_seat == 0 else waiting
    client.force_login(alice)

    page = client.get("/").content.decode()

    assert f"/mesas/{waiting.pk}/" in page
    assert f"/mesas/{playing.pk}/" in page
    assert f"/mesas/{other.pk}/" not in page
    assert "/mesas/nueva/" in page
    assert "Esperando jugadores" in page
    if playing.turn_seat == 0:
        assert "Te toca" in page and "Quedan" in page
        assert page.index(f"/mesas/{mine_first.pk}/") < page.index(f"/mesas/{waiting.pk}/")
    else:
        assert "Le toca a bob" in page


def test_it_invites_to_create_a_first_table(client, alice):
    client.force_login(alice)

    page = client.get("/").content.decode()

    assert "Aún no tienes mesas" in page


def test_it_speaks_english_to_an_english_player(client, carol):
    client.force_login(carol)

    page = client.get("/").content.decode()

    assert "My tables" in page
    assert "New table" in page


def test_a_match_that_did_not_end_at_the_target_says_how_it_ended(client, alice, bob, carol):
    """A match lost by abandoning read just "Perdiste" (and won by it, "Ganaste"), like a
    match played to the target; how it ended is now in both lists (R26-R28)."""
    left = seat_friends(alice, [bob])
    services.table_abandon(table_id=left.pk, user=alice)
    closed = seat_friends(alice, [carol])
    services.table_close_by_moderator(table_id=closed.pk)
    for page_url in ("/", "/partidas/"):
        client.force_login(alice)
        page = client.get(page_url).content.decode()
        assert "Perdiste por abandono" in page, page_url
        assert "Sin ganador: cerrada por un moderador" in page, page_url
        client.force_login(bob)
        assert "Ganaste por abandono" in client.get(page_url).content.decode(), page_url


def test_a_one_hand_table_names_no_target(client, alice):
    """first_double: one hand decides the match, so the row says so instead of "meta 1"
    (the last look read "meta 1" as a target of one point)."""
    services.table_create(creator=alice, seats=2, others=["nino"], rules="first_double")
    services.table_create(creator=alice, seats=2, others=["nino"], target=50)
    client.force_login(alice)

    page = client.get("/").content.decode()

    assert "a una mano" in page
    assert "meta 1<" not in page and "meta 1\n" not in page
    assert "meta 50" in page


@pytest.mark.parametrize(
    ("left", "text"),
    [
        (timedelta(days=3, hours=5, minutes=30), "Quedan 3 días y 5 h"),
        (timedelta(hours=47, minutes=59, seconds=30), "Queda 1 día y 23 h"),
        (timedelta(hours=5, minutes=7, seconds=30), "Quedan 5 h 7 min"),
        (timedelta(hours=1, minutes=7, seconds=30), "Queda 1 h 7 min"),
        (timedelta(minutes=12, seconds=30), "Quedan 12 min"),
        (timedelta(minutes=1, seconds=30), "Queda 1 min"),
        (timedelta(seconds=20), "Queda menos de un minuto"),
    ],
)
def test_the_time_left_reads_as_on_the_table_page(client, alice, bob, left, text):
    """The row writes the time left as the table page's status line does (state.js's
    ``timeLeft``): days and hours from a day up, then hours and minutes, the verb agreeing
    with the number it starts with ("Quedan 1 día, 23 h" read before)."""
    table = seat_friends(alice, [bob])
    Table.objects.filter(pk=table.pk).update(turn_seat=0, deadline=timezone.now() + left)
    client.force_login(alice)

    page = client.get("/").content.decode()

    assert text in page
