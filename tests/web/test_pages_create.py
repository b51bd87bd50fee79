"""Create a table: seats, target, friend or bot for each other seat (R29)."""

import pytest

from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_it_sends_anonymous_visitors_to_login(client):
    r = client.get("/mesas/nueva/")

    assert r.status_code == 302
    assert "/accounts/login/" in r.headers["Location"]


def test_it_shows_the_form(client, alice):
    client.force_login(alice)

    page = client.get("/mesas/nueva/").content.decode()

    assert 'name="seats"' in page and 'name="target"' in page
    assert "Abuela Quelonia" in page and "Garabato" in page and "Nino" in page
    assert "tu pareja" in page


def test_it_creates_a_table_with_a_friend_and_shows_the_share_link(client, alice):
    client.force_login(alice)

    r = client.post("/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "friend"})

    table = Table.objects.get(creator=alice)
    assert r.status_code == 302
    assert r.headers["Location"] == f"/mesas/{table.pk}/"
    assert (table.seats, table.target, table.status) == (2, 50, "waiting")
    token = Seat.objects.get(table=table, index=1).invite_token
    page = client.get(r.headers["Location"]).content.decode()
    assert f"http://testserver/invitacion/{token}/" in page


def test_it_creates_a_four_seat_table_with_bots_that_starts_at_once(client, alice):
    client.force_login(alice)

    r = client.post(
        "/mesas/nueva/",
        {"seats": 4, "target": 100, "seat_1": "nino", "seat_2": "quelonia", "seat_3": "garabato"},
    )

    table = Table.objects.get(creator=alice)
    assert r.status_code == 302
    assert table.status == "playing"
    bots = list(Seat.objects.filter(table=table).order_by("index").values_list("bot", flat=True))
    assert bots == ["", "nino", "quelonia", "garabato"]


def test_extra_seats_of_a_smaller_table_are_ignored(client, alice):
    client.force_login(alice)

    client.post("/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "garabato", "seat_2": "nino"})

    assert Seat.objects.filter(table__creator=alice).count() == 2


@pytest.mark.parametrize(
    "data, field",
    [
        ({"seats": 5, "target": 50, "seat_1": "friend"}, "seats"),
        ({"seats": 2, "target": 70, "seat_1": "friend"}, "target"),
        ({"seats": 2, "target": 50, "seat_1": "deep-blue"}, "seat_1"),
        ({"seats": 3, "target": 50, "seat_1": "friend", "seat_2": ""}, "seat_2"),
    ],
)
def test_it_refuses_an_invalid_form(client, alice, data, field):
    client.force_login(alice)

    r = client.post("/mesas/nueva/", data)

    assert r.status_code == 400
    assert r.context["form"].errors[field]
    assert 'class="errorlist' in r.content.decode()
    assert not Table.objects.exists()


def test_it_speaks_english_to_an_english_player(client, carol):
    client.force_login(carol)

    page = client.get("/mesas/nueva/").content.decode()

    assert "New table" in page and "your partner" in page


def test_every_seat_starts_as_a_friend_and_the_target_at_50(client, alice):
    # issue 16: a player who picks 3 seats for friends never silently gets a bot.
    client.force_login(alice)

    form = client.get("/mesas/nueva/").context["form"]

    assert [form[f"seat_{index}"].value() for index in (1, 2, 3)] == ["friend"] * 3
    assert form["target"].value() == 50


def test_play_bots_now_makes_a_two_seat_table_against_nino_in_one_click(client, alice):
    client.force_login(alice)
    assert "Jugar ya contra los bots" in client.get("/").content.decode()
    assert "Jugar ya contra los bots" in client.get("/mesas/nueva/").content.decode()

    r = client.post("/mesas/contra-los-bots/")

    table = Table.objects.get(creator=alice)
    assert r.headers["Location"] == f"/mesas/{table.pk}/"
    assert (table.seats, table.target, table.rules, table.status) == (2, 50, "classic", "playing")
    assert list(Seat.objects.filter(table=table).values_list("bot", flat=True)) == ["", "nino"]
    assert client.get("/mesas/contra-los-bots/").status_code == 405
