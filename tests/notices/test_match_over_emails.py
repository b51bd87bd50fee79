"""The end of a match by e-mail (notices.email): everyone away is told the result, the
reason and the scores, in their language, once; whoever ended it from the table (or
anyone there) is not mailed; a table closed before it filled tells its creator."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail

from notices import tasks as notice_tasks
from notices.models import Notification
from tables import tasks
from tables.models import Table
from tests.notices.support import html_of
from tests.support.api import create_table, join
from tests.support.clock import H48, MINUTE, T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

AWAY = T0 + timedelta(minutes=5)  # everyone's presence from T0 has run out (120 s)


def _link(table_id: int) -> str:
    return f"{settings.SITE_URL}/mesas/{table_id}/"


def _two_people(api_client_for, run_tasks, creator, friend):
    created = create_table(api_client_for(creator), 2, ["friend"])
    with run_tasks():
        join(api_client_for(friend), created["invites"][0]["token"])
    return created["id"], {0: api_client_for(creator), 1: api_client_for(friend)}


def test_everyone_away_is_told_how_the_match_ended(
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
    # One e-mail per human who wants mail: alice, bob, carol; dave has e-mails off.
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
        assert _link(table_id) in message.body
        if user.language == "en":
            assert message.subject == (
                f"Dominó · You won the match at table {table_id}!"
                if won
                else f"Dominó · The match at table {table_id} is over"
            )
            assert f"Reason: Absence ({absent_name})" in message.body
            assert "Winners: " in message.body
        else:
            assert message.subject == (
                f"Dominó · ¡Has ganado la partida de la mesa {table_id}!"
                if won
                else f"Dominó · Terminó la partida de la mesa {table_id}"
            )
            assert f"Motivo: Ausencia ({absent_name})" in message.body
            assert "Ganadores: " in message.body
            assert "Motivo: Ausencia" in html_of(message)


def test_an_abandoned_match_is_told_to_the_one_away_not_to_who_left(
    clock, api_client_for, run_tasks, alice, carol
):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, carol)
    clock.move_to(AWAY)
    mail.outbox.clear()
    with run_tasks():
        response = clients[1].post(f"/api/v1/tables/{table_id}/abandon/")
    assert response.status_code == 200
    # carol left from the table, which showed her the end: her e-mail waits while she
    # counts as there, then is not needed
    clock.move_to(AWAY + timedelta(minutes=3))
    with run_tasks():
        notice_tasks.deliver_emails()
    (message,) = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == f"Dominó · ¡Has ganado la partida de la mesa {table_id}!"
    assert "Ganadores: alice." in message.body
    assert "Motivo: Abandono (carol)" in message.body
    kinds = Notification.objects.filter(table_id=table_id, kind="match_over")
    assert sorted(kinds.values_list("recipient__username", "email")) == [
        ("alice", "sent"),
        ("carol", "skipped"),
    ]


def test_the_creator_is_told_when_a_never_filled_table_closes_idle(
    clock, api_client_for, run_tasks, alice
):
    created = create_table(api_client_for(alice), 3, ["friend", "garabato"])
    clock.move_to(T0 + timedelta(days=7, minutes=1))
    with run_tasks():
        assert tasks.sweep_idle() == 1
    (message,) = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == f"Dominó · Terminó la partida de la mesa {created['id']}"
    assert "La mesa se cerró antes de que llegaran todos los jugadores." in message.body
    assert "Motivo: Mesa inactiva" in message.body
