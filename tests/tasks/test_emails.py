"""E-mails (tables.notifications): a human whose turn begins is told (with the table's
link), reminded once when 24 of their 48 hours are left, and everyone is told how a match
ended and why; each in the player's language, and never to a player with e-mails off.

Mail goes to Django's locmem outbox (config/settings/test.py); the tasks run inline and the
``on_commit`` callbacks that schedule them are executed by the capture fixture.
"""

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail

from tables import tasks
from tables.models import Table
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import H24, H48, MINUTE, T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db


def _link(table_id: int) -> str:
    return f"{settings.SITE_URL}/mesas/{table_id}/"


def _two_people(api_client_for, run_tasks, creator, friend):
    created = create_table(api_client_for(creator), 2, ["friend"])
    with run_tasks():
        join(api_client_for(friend), created["invites"][0]["token"])
    return created["id"], {0: api_client_for(creator), 1: api_client_for(friend)}


def _to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def test_it_mails_each_human_when_their_turn_begins_in_their_language(
    clock, api_client_for, run_tasks, alice, carol
):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, carol)
    users = {0: alice, 1: carol}
    row = fresh(table_id)
    first = users[row.turn_seat]
    assert [message.to for message in mail.outbox] == [[first.email]]
    _assert_turn_mail(mail.outbox[0], table_id, first)

    # That player moves: now the other one is told, once.
    mail.outbox.clear()
    with run_tasks():
        response = play_one(
            clients[row.turn_seat], table(clients[row.turn_seat], table_id), random.Random(1)
        )
    assert response.status_code == 200
    row = fresh(table_id)
    second = users[row.turn_seat]
    assert second != first
    assert [message.to for message in mail.outbox] == [[second.email]]
    _assert_turn_mail(mail.outbox[0], table_id, second)


def _assert_turn_mail(message, table_id: int, user) -> None:
    assert _link(table_id) in message.body
    assert user.username in message.body
    assert "6 Mar 2030, 09:30 (UTC)" in message.body  # T0 + 48 h
    if user.language == "en":
        assert message.subject == f"Your turn at table {table_id}"
        assert "You have 48 hours to play" in message.body
        assert "Hi carol," in message.body
    else:
        assert message.subject == f"Te toca jugar en la mesa {table_id}"
        assert "Tienes 48 horas para jugar" in message.body
        assert "Hola, alice:" in message.body


def test_it_mails_nobody_who_turned_e_mails_off(clock, api_client_for, run_tasks, alice, dave):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, dave)
    rng = random.Random(2)
    for _ in range(4):  # both players get the turn at least once
        row = fresh(table_id)
        with run_tasks():
            response = play_one(
                clients[row.turn_seat], table(clients[row.turn_seat], table_id), rng
            )
        assert response.status_code == 200
    assert _to(dave) == []
    assert _to(alice)  # alice keeps hers
    with run_tasks():
        clock.move_to(T0 + H48 + H48)
        tasks.sweep_reminders()
        tasks.sweep_absences()
    assert fresh(table_id).status == Table.Status.FINISHED
    assert _to(dave) == []


def test_it_never_mails_a_bot_seat_and_tells_the_human_after_the_bots_move(
    clock, api_client_for, run_tasks, carol
):
    client = api_client_for(carol)
    with run_tasks():
        created = create_table(client, 2, ["garabato"])
    # Whoever led, the bot has moved by now and it is carol's turn: one mail, hers.
    assert fresh(created["id"]).turn_seat == 0
    assert [message.to for message in mail.outbox] == [[carol.email]]
    assert mail.outbox[0].subject == f"Your turn at table {created['id']}"


def test_it_reminds_once_when_24_hours_are_left(clock, api_client_for, run_tasks, alice, bob):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    users = {0: alice, 1: bob}
    row = fresh(table_id)
    mover = users[row.turn_seat]
    mail.outbox.clear()

    clock.move_to(T0 + H24 - MINUTE)  # 24 h 01 min left
    assert tasks.sweep_reminders() == 0
    assert mail.outbox == []
    assert fresh(table_id).reminded_version is None

    clock.move_to(T0 + H24)  # exactly 24 h left
    assert tasks.sweep_reminders() == 1
    assert [message.to for message in mail.outbox] == [[mover.email]]
    message = mail.outbox[0]
    assert message.subject == f"Quedan menos de 24 horas para tu turno en la mesa {table_id}"
    assert _link(table_id) in message.body
    assert "vence el 6 Mar 2030, 09:30 (UTC)" in message.body
    assert fresh(table_id).reminded_version == row.version

    # Later sweeps in the same turn remind nobody again.
    for minutes in (5, 60, 23 * 60):
        clock.move_to(T0 + H24 + timedelta(minutes=minutes))
        assert tasks.sweep_reminders() == 0
    assert len(mail.outbox) == 1
    assert fresh(table_id).version == row.version

    # A new turn gets its own reminder, once, 24 h before its own deadline.
    with run_tasks():
        response = play_one(
            clients[row.turn_seat], table(clients[row.turn_seat], table_id), random.Random(3)
        )
    assert response.status_code == 200
    turn_began = T0 + H24 + timedelta(minutes=23 * 60)
    mail.outbox.clear()
    clock.move_to(turn_began + H24 - MINUTE)
    assert tasks.sweep_reminders() == 0
    clock.move_to(turn_began + H24 + MINUTE)
    assert tasks.sweep_reminders() == 1
    assert tasks.sweep_reminders() == 0
    assert [message.to for message in mail.outbox] == [[users[fresh(table_id).turn_seat].email]]


def test_it_reminds_in_english_with_the_deadline_in_utc(clock, api_client_for, run_tasks, carol):
    with run_tasks():
        created = create_table(api_client_for(carol), 2, ["garabato"])
    mail.outbox.clear()
    row = fresh(created["id"])
    clock.move_to(row.deadline - H24 + MINUTE)
    assert tasks.sweep_reminders() == 1
    (message,) = mail.outbox
    assert message.subject == f"Less than 24 hours left for your turn at table {created['id']}"
    assert "runs out on 6 Mar 2030, 09:30 (UTC)" in message.body
    assert _link(created["id"]) in message.body


def test_it_tells_everyone_how_the_match_ended(
    clock, api_client_for, run_tasks, alice, bob, carol, dave
):
    created = create_table(api_client_for(alice), 4, ["friend", "friend", "friend"])
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    users = {0: alice, 1: bob, 2: carol, 3: dave}
    with run_tasks():
        for seat in (1, 2, 3):
            join(api_client_for(users[seat]), invites[seat])
    table_id = created["id"]
    absent = fresh(table_id).turn_seat
    mail.outbox.clear()

    clock.move_to(T0 + H48 + MINUTE)
    with run_tasks():
        assert tasks.sweep_absences() == 1
    row = fresh(table_id)
    assert row.outcome == Table.Outcome.ABSENT
    # One notice per human who wants mail: alice, bob, carol; dave has e-mails off.
    assert sorted(message.to[0] for message in mail.outbox) == sorted(
        user.email for user in (alice, bob, carol)
    )
    by_user = {message.to[0]: message for message in mail.outbox}
    absent_name = users[absent].username
    for seat, user in users.items():
        if user is dave:
            continue
        message = by_user[user.email]
        won = seat in row.winners
        english = user.language == "en"
        assert _link(table_id) in message.body
        if english:
            assert message.subject == (
                f"You won the match at table {table_id}!"
                if won
                else f"The match at table {table_id} is over"
            )
            assert f"Reason: Absence ({absent_name})" in message.body
            assert "Winners: " in message.body
        else:
            assert message.subject == (
                f"¡Has ganado la partida de la mesa {table_id}!"
                if won
                else f"Terminó la partida de la mesa {table_id}"
            )
            assert f"Motivo: Ausencia ({absent_name})" in message.body
            assert "Ganadores: " in message.body


def test_it_tells_the_players_of_an_abandoned_match(clock, api_client_for, run_tasks, alice, carol):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, carol)
    mail.outbox.clear()
    with run_tasks():
        response = clients[1].post(f"/api/v1/tables/{table_id}/abandon/")
    assert response.status_code == 200
    by_user = {message.to[0]: message for message in mail.outbox}
    assert set(by_user) == {alice.email, carol.email}
    assert by_user[alice.email].subject == f"¡Has ganado la partida de la mesa {table_id}!"
    assert "Ganadores: alice." in by_user[alice.email].body
    assert "Motivo: Abandono (carol)" in by_user[alice.email].body
    assert by_user[carol.email].subject == f"The match at table {table_id} is over"
    assert "Reason: Abandoned (carol)" in by_user[carol.email].body


def test_it_tells_the_creator_when_a_never_filled_table_closes_idle(
    clock, api_client_for, run_tasks, alice
):
    created = create_table(api_client_for(alice), 3, ["friend", "garabato"])
    clock.move_to(T0 + timedelta(days=7, minutes=1))
    with run_tasks():
        assert tasks.sweep_idle() == 1
    (message,) = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == f"Terminó la partida de la mesa {created['id']}"
    assert "La mesa se cerró antes de que llegaran todos los jugadores." in message.body
    assert "Motivo: Mesa inactiva" in message.body
