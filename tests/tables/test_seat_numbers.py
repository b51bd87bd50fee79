"""A body that names a seat the table does not have, or the wrong number of other seats,
is told what is true for that table. A move ``{"seat": 5}`` or a mute ``{"seat": 7}`` at
a 2-seat table said "Tiene que ser menor o igual que 3." (the largest table's last
seat), and ``{"seat": 2}`` there "No juegas en ese asiento." or a bare 404; now each is
400 ``no_such_seat`` (a code of its own, so an app can tell it from a body's other
mistakes) with "No hay asiento de índice 5 en esta mesa: los índices van del 0 al 1
(asientos 1 a 2)." in
``fields.seat``. Creating a 3-seat table with ``others: ["nino"]`` said "Indica, para
cada otro asiento, «friend» o un bot…" without how many: now "Esta mesa tiene 2 asientos
más: indica 2 en others…"."""

from __future__ import annotations

import pytest

from moderation.models import Report, TalkMute
from tables import services
from tables.errors import TableError
from tables.models import Table
from tests.support.api import seated_clients, table

pytestmark = pytest.mark.django_db


def _no_seat(seat: int, last: int) -> str:
    return (
        f"No hay asiento de índice {seat} en esta mesa: los índices van del 0 al {last} "
        f"(asientos 1 a {last + 1})."
    )


def _refused(answer, detail: str) -> None:
    assert answer.status_code == 400, answer.content[:300]
    body = answer.json()
    assert (body["code"], body["detail"], body["fields"]) == (
        "no_such_seat",
        detail,
        {"seat": [detail]},
    )


@pytest.fixture
def two_seats(api_client_for, alice, bob):
    """alice (seat 0) and bob (seat 1) playing at a 2-seat table."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    return table_id, clients[0], clients[1]


def test_a_move_for_a_seat_the_table_does_not_have(two_seats):
    table_id, alice, bob = two_seats
    state = table(alice, table_id)
    mover = alice if state["turn_seat"] == 0 else bob
    moves = f"/api/v1/tables/{table_id}/moves/"

    for seat in (5, 2, 2**40):
        body = {"tile": "6-6", "version": state["version"], "seat": seat}
        _refused(mover.post(moves, body, format="json"), _no_seat(seat, 1))
    rival = 1 - state["turn_seat"]
    body = {"tile": "6-6", "version": state["version"], "seat": rival}
    assert mover.post(moves, body, format="json").json()["code"] == "not_your_seat"
    assert Table.objects.get(pk=table_id).version == state["version"]


def test_a_mute_or_a_report_of_a_seat_the_table_does_not_have(two_seats, api_client_for, mallory):
    table_id, alice, _bob = two_seats
    mute = f"/api/v1/tables/{table_id}/talk/mute/"
    report = f"/api/v1/tables/{table_id}/reports/"

    _refused(alice.post(mute, {"seat": 7}, format="json"), _no_seat(7, 1))
    _refused(alice.post(mute, {"seat": 2}, format="json"), _no_seat(2, 1))
    _refused(alice.post(report, {"seat": 9, "reason": "spam"}, format="json"), _no_seat(9, 1))
    # mallory, seated nowhere, learns nothing of the table from it: the usual 404
    stranger = api_client_for(mallory).post(mute, {"seat": 7}, format="json")
    assert (stranger.status_code, stranger.json()["code"]) == (404, "not_found")
    assert not TalkMute.objects.exists() and not Report.objects.exists()
    assert alice.post(mute, {"seat": 1}, format="json").status_code == 201


def test_carol_reads_it_in_english(api_client_for, carol, dave):
    table_id, clients = seated_clients(api_client_for, [carol, dave])
    mute = f"/api/v1/tables/{table_id}/talk/mute/"

    answer = clients[0].post(mute, {"seat": 4}, format="json", HTTP_ACCEPT_LANGUAGE="en")

    _refused(
        answer,
        "There is no seat index 4 at this table: indexes go from 0 to 1 (seats 1 to 2).",
    )


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            {"seats": 3, "target": 100, "others": ["nino"]},
            "Esta mesa tiene 2 asientos más: indica 2 en others, cada uno «friend» o un bot "
            "(garabato, nino, quelonia); has indicado 1.",
        ),
        (
            {"seats": 2, "target": 100, "others": ["nino", "friend"]},
            "Esta mesa tiene 1 asiento más: indica 1 en others, «friend» o un bot "
            "(garabato, nino, quelonia); has indicado 2.",
        ),
        (
            {"seats": 4, "target": 150, "others": ["nino"] * 3, "rules": "seven_plus_seven"},
            "Indica solo la otra pareja, una entrada en others: «friend» o un bot "
            "(garabato, nino, quelonia); has indicado 3.",
        ),
    ],
)
def test_creating_a_table_says_how_many_others_it_needs(api_client_for, alice, body, detail):
    answer = api_client_for(alice).post("/api/v1/tables/", body, format="json")

    assert answer.status_code == 400, answer.content[:300]
    assert (answer.json()["code"], answer.json()["rule"]) == ("invalid_table", "R29")
    assert answer.json()["detail"] == detail
    assert answer.json()["fields"] == {"others": [detail]}
    assert not Table.objects.exists()


def test_the_right_count_with_an_unknown_player_keeps_the_general_sentence(alice):
    """The API's body refuses an unknown name first ("«deep-blue» no es una de las
    opciones."); the service, called with one, says what each seat takes."""
    with pytest.raises(TableError) as refused:
        services.table_create(creator=alice, seats=3, target=100, others=["nino", "deep-blue"])

    assert refused.value.detail == (
        "Indica, para cada otro asiento, «friend» o un bot (garabato, nino, quelonia)."
    )


def test_the_count_reads_right_in_english(api_client_for, carol):
    client = api_client_for(carol)
    bodies = [
        {"seats": 4, "target": 100, "others": ["nino"]},
        {"seats": 2, "target": 100, "others": ["nino", "nino"]},
    ]

    answers = [
        client.post("/api/v1/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
        for body in bodies
    ]
    details = [answer.json()["detail"] for answer in answers]

    assert details == [
        "This table has 3 more seats: give 3 in others, each “friend” or a bot "
        "(garabato, nino, quelonia); you gave 1.",
        "This table has 1 more seat: give 1 in others, “friend” or a bot "
        "(garabato, nino, quelonia); you gave 2.",
    ]
