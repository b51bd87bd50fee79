"""Home: each row's score line names every other side where each seat scores alone.

At three seats the line read "Tú 29 · rival 100": with two rivals, which one? Now each
other player is named with their points, in play order after you. In pairs the line read
"Tú 29 · rival 100", the pair's points as yours and two rivals as one: now "Tu pareja y
tú 29 · rivales 100". The row's title names the others in that same order, the partner
first and marked."""

import re

import pytest

from tables import services
from tables.models import Seat, Table
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db


def _score_line(client, user, table: Table) -> str:
    """The text of ``table``'s score line on ``user``'s "Mis mesas", spaces collapsed."""
    client.force_login(user)
    page = client.get("/").content.decode()
    row = page[page.index(f'href="/mesas/{table.pk}/"') :]
    line = re.search(r'<span class="table-score">(.*?)</span>\s*</a>', row, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", line).split())


def _title(client, user, table: Table) -> str:
    """The text of ``table``'s row title on ``user``'s "Mis mesas", spaces collapsed, without
    the changed dot's hidden "Novedades:"."""
    client.force_login(user)
    page = client.get("/").content.decode()
    row = page[page.index(f'href="/mesas/{table.pk}/"') :]
    title = re.search(r'<span class="table-title">(.*?)</span>\s*<span', row, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", title).split()).removeprefix("Novedades: ")


def _scores(table: Table, *points: int) -> None:
    for index, score in enumerate(points):
        Seat.objects.filter(table=table, index=index).update(score=score)


def test_three_seats_name_each_rival_with_their_points_in_play_order(client, alice, bob):
    table = services.table_create(creator=alice, seats=3, target=100, others=["friend", "nino"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    _scores(table, 29, 100, 40)

    assert _score_line(client, alice, table) == "Tú 29 · bob 100 · Nino 40 · meta 100"
    # bob sits at 1: Nino (2) plays after him, then alice (0).
    assert _score_line(client, bob, table) == "Tú 100 · Nino 40 · alice 29 · meta 100"
    # The title in the same order, where it went by seat ("con alice, Nino").
    assert _title(client, bob, table) == f"Mesa {table.pk}: con Nino y alice"


def test_two_seats_name_the_rival(client, alice, bob):
    table = seat_friends(alice, [bob], target=50)
    _scores(table, 12, 30)

    assert _score_line(client, alice, table) == "Tú 12 · bob 30 · meta 50"


def test_pairs_say_the_pair_and_the_rivals(client, alice, bob, carol, dave):
    """Four seats in pairs: one rival pair, its points once (seats 1 and 3 share them),
    said for the pairs: "Tu pareja y tú", "rivales" ("You and your partner", "rivals")."""
    table = seat_friends(alice, [bob, carol, dave])
    _scores(table, 29, 100, 29, 100)

    assert _score_line(client, alice, table) == "Tu pareja y tú 29 · rivales 100 · meta 100"
    # The partner (seat 2) marked and first, then the rivals in play order.
    title = f"Mesa {table.pk}: con carol (tu pareja) contra bob y dave"
    assert _title(client, alice, table) == title
    title = f"Mesa {table.pk}: con bob (tu pareja) contra alice y carol"
    assert _title(client, dave, table) == title


def test_seven_plus_seven_names_the_person_holding_the_rival_pair_once(client, alice, bob):
    table = services.table_create(
        creator=alice, seats=4, target=150, others=["friend"], rules="seven_plus_seven"
    )
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    _scores(table, 10, 60, 10, 60)

    assert _score_line(client, alice, table) == "Tú 10 · bob 60 · meta 150"
    assert _title(client, alice, table) == f"Mesa {table.pk}: con bob"  # her own partner


def test_a_seat_nobody_holds_yet_is_left_out(client, alice):
    table = services.table_create(creator=alice, seats=3, target=100, others=["friend", "nino"])

    assert _score_line(client, alice, table) == "Tú 0 · Nino 0 · meta 100"
