"""Table talk and moderators' actions are notices (issue 18 on issue 15's notices): a new
message is one ``talk`` row per reader and table, refreshed, never one per message, inbox
only; held partnership talk is told when its hand ends; a warning, a suspension and a
closed table reach the inbox of the players concerned, with the reason."""

from __future__ import annotations

import json
import random
import re

import pytest

from moderation import services
from notices import moderation_tasks
from notices.models import Notification
from notices.selectors import describe
from tables.models import TableEvent
from tests.moderation.conftest import say
from tests.support.api import play_until, seated_clients, table

pytestmark = pytest.mark.django_db

TILE = re.compile(r"\b[0-6]-[0-6]\b")


def _talk(user) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind="talk"))


@pytest.fixture
def two_seats(api_client_for, ana, bruno):
    """ana (seat 0) and bruno (seat 1) play a running two-seat table."""
    table_id, clients = seated_clients(api_client_for, [ana, bruno])
    return table_id, {"ana": clients[0], "bruno": clients[1]}


def test_three_messages_from_ana_are_one_talk_notice_for_bruno_and_none_for_mallory(
    two_seats, run_tasks, api_client_for, ana, bruno, mallory, generous_rates
):
    table_id, clients = two_seats
    with run_tasks():
        for text in ("hola", "¿jugamos otra?", "tengo el doble seis"):
            assert say(clients["ana"], table_id, text).status_code == 201
        assert say(api_client_for(mallory), table_id, "hola").status_code == 404
    [notice] = _talk(bruno)
    assert notice.read_at is None and notice.table_id == table_id
    assert (notice.payload["count"], notice.payload["authors"]) == (3, ["ana"])
    assert notice.email == "" and notice.push == "" and notice.channels == []  # inbox only
    public = json.dumps(notice.payload, ensure_ascii=False)
    assert "hola" not in public and "seis" not in public and not TILE.search(public)
    assert describe(notice) == f"ana: 3 mensajes nuevos en la mesa {table_id}"
    assert _talk(ana) == [] and Notification.objects.filter(recipient=mallory).count() == 0


def test_opening_the_table_reads_it_and_the_next_message_refreshes_the_same_row(
    two_seats, run_tasks, bruno, generous_rates
):
    table_id, clients = two_seats
    with run_tasks():
        say(clients["ana"], table_id, "hola")
    table(clients["bruno"], table_id)  # bruno opens the table
    [read] = _talk(bruno)
    assert read.read_at is not None
    with run_tasks():
        say(clients["ana"], table_id, phrase="good_luck")
    [notice] = _talk(bruno)
    assert notice.pk == read.pk and notice.read_at is None and notice.payload["count"] == 1
    assert describe(notice) == f"ana escribió en la mesa {table_id}"


def test_a_talk_event_delivered_again_after_the_notice_was_read_tells_nothing_again(
    two_seats, run_tasks, bruno, generous_rates
):
    """The outbox delivers at least once: the same message's event a second time, after
    bruno read its notice, neither marks it unread nor counts the message again."""
    table_id, clients = two_seats
    with run_tasks():
        say(clients["ana"], table_id, "hola")
    table(clients["bruno"], table_id)  # bruno opens the table
    [event] = TableEvent.objects.filter(table_id=table_id, kind="talk_posted")
    moderation_tasks.record_talk.apply((table_id, event.payload["message_ids"])).get()
    [notice] = _talk(bruno)
    assert notice.read_at is not None and notice.payload["count"] == 1


def test_a_muted_author_or_a_muted_table_causes_no_notice(
    two_seats, run_tasks, bruno, generous_rates
):
    table_id, clients = two_seats
    muted = clients["bruno"].post(f"/api/v1/tables/{table_id}/talk/mute/", {"seat": 0})
    assert muted.status_code in (200, 201), muted.json()
    with run_tasks():
        assert say(clients["ana"], table_id, "hola").status_code == 201
    assert _talk(bruno) == []


def test_at_four_seats_partner_bruno_is_told_only_when_the_hand_ends(
    four_seats, run_tasks, ana, bruno, carla, dani, generous_rates
):
    table_id, clients = four_seats
    rng = random.Random(18)
    hand = table(clients["ana"], table_id)["game"]["hand_number"]
    with run_tasks():
        assert say(clients["ana"], table_id, "tengo muchos seises").status_code == 201
    assert Notification.objects.filter(kind="talk").count() == 0  # held: nobody, not a row
    order = ["ana", "carla", "bruno", "dani"]
    with run_tasks():
        play_until(
            {seat: clients[name] for seat, name in enumerate(order)},
            table_id,
            rng,
            lambda state: state["game"]["hand_number"] > hand or state["status"] != "playing",
        )
    for reader in (bruno, carla, dani):
        [notice] = _talk(reader)
        assert (notice.payload["count"], notice.payload["authors"]) == (1, ["ana"])
        assert "seises" not in json.dumps(notice.payload, ensure_ascii=False)
    assert _talk(ana) == []


def test_a_warning_reaches_the_inbox_of_dani_with_its_reason(client, run_tasks, mod, dani, carla):
    with run_tasks():
        services.user_warn(moderator=mod, user_id=dani.pk, reason="lenguaje ofensivo")
    [notice] = Notification.objects.filter(recipient=dani, kind="moderation")
    assert notice.table_id is None and notice.read_at is None
    assert notice.payload["reason"] == "lenguaje ofensivo"
    assert Notification.objects.filter(recipient=carla).count() == 0
    client.force_login(dani)
    page = client.get("/avisos/").content.decode()
    assert "Un moderador te avisa: lenguaje ofensivo" in page
    notice.refresh_from_db()
    assert notice.read_at is not None  # shown in the inbox: read (it has no table to open)
    api = client.get("/api/v1/notifications/").json()["results"][0]
    assert (api["kind"], api["path"]) == ("moderation", None)


def test_a_suspension_and_a_closed_table_are_told_to_the_players_concerned(
    four_seats, run_tasks, mod, ana, bruno, carla, dani
):
    table_id, _clients = four_seats
    with run_tasks():
        services.user_suspend(moderator=mod, user_id=dani.pk, days=3, reason="spam")
        services.table_close(moderator=mod, table_id=table_id, reason="lenguaje ofensivo")
    [suspended] = Notification.objects.filter(recipient=dani, kind="moderation", table=None)
    assert "te suspendió hasta el" in describe(suspended) and describe(suspended).endswith("spam")
    for player in (ana, bruno, carla, dani):
        [closed] = Notification.objects.filter(recipient=player, kind="moderation", table=table_id)
        assert describe(closed) == f"Mesa {table_id} cerrada por un moderador: lenguaje ofensivo"
    assert Notification.objects.filter(recipient=mod).count() == 0
