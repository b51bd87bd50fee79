"""What the API says when a table cannot be made with no other seat named, or a tile is
sent that fits neither end of the line, and how its sentences number the seats.

``others: []`` was refused by the body's own length check ("invalid", a sentence about
list sizes) instead of the documented ``invalid_table`` that says how many entries the
table needs. A tile that fits neither end, sent without ``end``, said "Esa ficha no
encaja en esa punta." (which end?). Seat numbers in a sentence counted from 0 ("El
asiento 0 no tiene un enlace…") while the pages count from 1: they now say the seat as
the pages do and name the index the body or URL used."""

from __future__ import annotations

import random

import pytest

from tables.models import Table
from tests.support.api import create_table, seated_clients, table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seats", "language", "detail"),
    [
        (
            2,
            "es",
            "Esta mesa tiene 1 asiento más: indica 1 en others, «friend» o un bot "
            "(garabato, nino, quelonia); has indicado 0.",
        ),
        (
            4,
            "en",
            "This table has 3 more seats: give 3 in others, each “friend” or a bot "
            "(garabato, nino, quelonia); you gave 0.",
        ),
    ],
)
def test_no_others_says_how_many_the_table_needs(api_client_for, alice, seats, language, detail):
    answer = api_client_for(alice).post(
        "/api/v1/tables/",
        {"seats": seats, "others": []},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert answer.status_code == 400, answer.content[:300]
    body = answer.json()
    assert (body["code"], body["rule"], body["detail"]) == ("invalid_table", "R29", detail)
    assert body["fields"] == {"others": [detail]}
    assert not Table.objects.exists()


def test_too_many_others_says_how_many_too(api_client_for, alice):
    answer = api_client_for(alice).post(
        "/api/v1/tables/", {"seats": 4, "others": ["nino"] * 4}, format="json"
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_table")
    assert answer.json()["detail"].endswith("has indicado 4.")


def _a_tile_that_fits_nowhere(api_client_for, users):
    """A running 2-seat table where the seat to move holds a tile fitting neither end:
    ``(mover's client, its view, that tile)``."""
    table_id, clients = seated_clients(api_client_for, users)
    rng = random.Random(4)
    for _turn in range(60):
        state = table(clients[0], table_id)
        mover = clients[state["turn_seat"]]
        view = table(mover, table_id)
        game = view["game"]
        if game["ends"]:
            left, right = game["ends"]
            for tile in game["tiles"]:
                pips = {int(pip) for pip in tile.split("-")}
                if left not in pips and right not in pips:
                    return mover, view, tile
        move = rng.choice(game["legal_moves"])
        body = {"tile": move["tile"], "end": move["end"], "version": view["version"]}
        answer = mover.post(f"/api/v1/tables/{table_id}/moves/", body, format="json")
        assert answer.status_code == 200, answer.content[:300]
    raise AssertionError("no turn with a tile that fits neither end")


@pytest.mark.parametrize(
    ("language", "detail"),
    [
        ("es", "Esa ficha no encaja en ninguna de las dos puntas (%s y %s)."),
        ("en", "That tile fits neither end (%s and %s)."),
    ],
)
def test_a_tile_that_fits_neither_end_says_so(api_client_for, alice, bob, language, detail):
    mover, view, tile = _a_tile_that_fits_nowhere(api_client_for, [alice, bob])
    moves = f"/api/v1/tables/{view['id']}/moves/"

    answer = mover.post(
        moves,
        {"tile": tile, "version": view["version"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert answer.status_code == 400, answer.content[:300]
    left, right = view["game"]["ends"]
    assert (answer.json()["code"], answer.json()["rule"]) == ("tile_does_not_fit", "R11")
    assert answer.json()["detail"] == detail % (left, right)
    # with an end named, the sentence is still about that end
    named = mover.post(
        moves, {"tile": tile, "end": left, "version": view["version"]}, format="json"
    )
    assert named.json()["detail"] == "Esa ficha no encaja en esa punta."
    assert Table.objects.get(pk=view["id"]).version == view["version"]


def test_seat_sentences_count_from_one_and_name_the_index(api_client_for, alice):
    created = create_table(api_client_for(alice), 3, ["friend", "nino"])
    renew = f"/api/v1/tables/{created['id']}/invites/%d/renew/"
    creator = api_client_for(alice)

    own = creator.post(renew % 0).json()["detail"]
    english = creator.post(renew % 2, HTTP_ACCEPT_LANGUAGE="en").json()["detail"]
    missing = creator.post(renew % 5).json()["detail"]
    missing_en = creator.post(renew % 5, HTTP_ACCEPT_LANGUAGE="en").json()["detail"]

    assert own == "El asiento 1 (índice 0) no tiene un enlace de invitación que renovar."
    assert english == "Seat 3 (index 2) has no invite link to renew."
    assert missing == (
        "No hay asiento de índice 5 en esta mesa: los índices van del 0 al 2 (asientos 1 a 3)."
    )
    assert missing_en == (
        "There is no seat index 5 at this table: indexes go from 0 to 2 (seats 1 to 3)."
    )
