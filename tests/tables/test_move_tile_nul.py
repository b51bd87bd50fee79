"""A move's ``tile`` holding a NUL (U+0000) is refused as any other text that is not a
tile ("\\u0001", "x"): 400 ``invalid`` with the tile's one sentence under ``tile``, not
DRF's "Los caracteres nulos no están permitidos." beside it; the table does not move."""

import pytest

from tests.support.api import seated_clients, table

pytestmark = pytest.mark.django_db

TILE_WRITTEN = "Escribe la ficha como «6-4»: dos cifras y un guion, sin espacios."


@pytest.mark.parametrize("tile", ["\x00", "6-4\x00", "\x006-4", "\x01"])
def test_alice_s_tile_with_a_control_character_gets_the_tile_sentence_only(
    tile, api_client_for, alice, bob
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    before = table(clients[0], table_id)
    mover = clients[before["turn_seat"]]

    answer = mover.post(
        f"/api/v1/tables/{table_id}/moves/",
        {"tile": tile, "version": before["version"]},
        format="json",
    )

    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid"
    assert answer.json()["fields"] == {"tile": [TILE_WRITTEN]}
    assert table(clients[0], table_id)["version"] == before["version"]
