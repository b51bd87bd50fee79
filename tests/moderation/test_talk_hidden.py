"""What a player's mutes hide, counted for the talk panel: bob, who muted alice, reads no
message of hers, but the talk tells him how many there are (``hidden``, in all and per
muted person), so that the panel never says "Aún no hay mensajes." over a talk that has
messages. Only delivered messages count: one held until its hand's end is counted no more
than it is shown (seed 002, "Sin señas")."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from moderation.ui_strings import talk_strings
from tables import services as table_services
from tests.moderation.conftest import say, talk
from tests.support.api import seated_clients

pytestmark = pytest.mark.django_db


def _mute(client, table_id: int, seat: int | None = None) -> int:
    body = {} if seat is None else {"seat": seat}
    response = client.post(f"/api/v1/tables/{table_id}/talk/mute/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_every_message_from_alice_is_hidden_from_bob_and_counted(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    for text in ("hola", "¿otra?"):
        assert say(clients[0], table_id, text).status_code == 201
    assert talk(clients[1], table_id)["hidden"] == 0  # nothing muted yet
    mute = _mute(clients[1], table_id, seat=0)
    view = talk(clients[1], table_id)
    assert view["messages"] == []
    assert view["hidden"] == 2
    assert view["muted_people"] == [{"id": mute, "seat": 0, "name": "alice", "hidden": 2}]
    assert talk(clients[0], table_id)["hidden"] == 0  # alice muted nobody

    assert clients[1].delete(f"/api/v1/talk/mutes/{mute}/").status_code == 204
    view = talk(clients[1], table_id)
    assert [m["text"] for m in view["messages"]] == ["hola", "¿otra?"]
    assert view["hidden"] == 0 and view["muted_people"] == []


def test_some_messages_shown_and_some_hidden(api_client_for, alice, bob, carol):
    table_id, clients = seated_clients(api_client_for, [alice, bob, carol])
    mute = _mute(clients[1], table_id, seat=0)  # bob mutes alice
    assert say(clients[0], table_id, "de alice").status_code == 201
    assert say(clients[2], table_id, "de carol").status_code == 201
    assert say(clients[1], table_id, "de bob").status_code == 201
    view = talk(clients[1], table_id)
    assert [m["text"] for m in view["messages"]] == ["de carol", "de bob"]
    assert view["hidden"] == 1
    assert view["muted_people"] == [{"id": mute, "seat": 0, "name": "alice", "hidden": 1}]
    assert talk(clients[2], table_id)["hidden"] == 0  # carol hears everyone


def test_a_muted_person_who_wrote_nothing_here_hides_nothing(api_client_for, alice, bob, carol):
    first, clients = seated_clients(api_client_for, [alice, bob])
    _mute(clients[1], first, seat=0)
    second, others = seated_clients(api_client_for, [alice, carol, bob])
    assert say(others[1], second, "de carol").status_code == 201
    view = talk(others[2], second)
    assert [m["text"] for m in view["messages"]] == ["de carol"]
    assert view["hidden"] == 0 and view["muted_people"][0]["hidden"] == 0


def test_a_muted_tables_talk_counts_what_it_hides(api_client_for, alice, bob, carol):
    table_id, clients = seated_clients(api_client_for, [alice, bob, carol])
    _mute(clients[1], table_id)  # bob mutes the table's talk
    for client, text in ((clients[0], "uno"), (clients[2], "dos"), (clients[1], "mío")):
        assert say(client, table_id, text).status_code == 201
    view = talk(clients[1], table_id)
    assert view["muted"] is True and [m["text"] for m in view["messages"]] == ["mío"]
    assert view["hidden"] == 2 and view["muted_people"] == []


def test_a_held_message_is_not_counted_before_its_hand_ends(four_seats, admin_user):
    table_id, clients = four_seats
    _mute(clients["carla"], table_id, seat=0)  # carla mutes ana
    assert say(clients["ana"], table_id, "buena suerte, compañero").status_code == 201
    view = talk(clients["carla"], table_id)
    assert view["hidden"] == 0 and view["muted_people"][0]["hidden"] == 0  # no sign of it
    assert table_services.table_close_by_moderator(table_id=table_id)  # delivered now
    view = talk(clients["carla"], table_id)
    assert view["messages"] == [] and view["hidden"] == 1


def test_mallory_learns_nothing_of_the_talk(api_client_for, alice, bob, mallory):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, "hola").status_code == 201
    response = api_client_for(mallory).get(f"/api/v1/tables/{table_id}/talk/")
    assert response.status_code == 404 and "hidden" not in response.json()


#: The panel's words its template writes itself (templates/moderation/talk_panel.html),
#: with the same texts, so the script never reads them from the JSON.
WRITTEN_BY_THE_TEMPLATE = {
    "title",
    "placeholder",
    "send",
    "phrases",
    "report_player",
    "report_who",
    "report_reason",
    "report_text",
    "report_send",
    "report_cancel",
    "too_long",
}


def test_the_talk_panel_sends_its_script_no_word_it_never_says():
    """The words ``muted_table``, "Has silenciado la charla de esta mesa.", went to every
    table page and were shown nowhere: a muted table's panel says it with ``hidden_table`` ("Los
    mensajes de esta mesa están ocultos: has silenciado su charla.") over an empty list
    and with the link ``unmute_table`` ("Volver a oír la charla de esta mesa")."""
    script = (settings.BASE_DIR / "static/js/table/talk.js").read_text()
    read = set(re.findall(r"\bwords\.(\w+)", script))

    unread = set(talk_strings()) - read

    assert unread <= WRITTEN_BY_THE_TEMPLATE, unread - WRITTEN_BY_THE_TEMPLATE
