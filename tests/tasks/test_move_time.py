"""Move time per table (R27, issue 16): the creator of a friends' table picks 1, 2, 3 or 7
days a move. The deadline, the reminder (24 h before it, or half the move time when that
is less), the absence sweep and the API follow the table's own choice; the idle close
(R28, 7 days without a move) does not change.

The clock is frozen at T0 and moved by hand (time-machine).
"""

from datetime import timedelta

import pytest

from notices import tasks as notice_tasks
from tables import tasks
from tables.models import Table
from tests.support.api import join, seat_clients, table
from tests.support.clock import T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)


def _friends_table(api_client_for, alice, bob, move_days: int) -> int:
    """alice's 2-seat table with bob, ``move_days`` days a move, the match running."""
    response = api_client_for(alice).post(
        "/api/v1/tables/",
        {"seats": 2, "target": 100, "others": ["friend"], "move_days": move_days},
        format="json",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["move_seconds"] == move_days * 86400
    seat_clients(api_client_for, [alice, bob], created)
    return created["id"]


def test_a_1_day_table_forfeits_after_1_day(clock, api_client_for, alice, bob):
    table_id = _friends_table(api_client_for, alice, bob, 1)
    row = fresh(table_id)
    assert row.status == Table.Status.PLAYING and row.deadline == T0 + DAY
    absent = row.turn_seat
    view = table(api_client_for(alice), table_id)
    assert view["move_seconds"] == 86400
    assert view["deadline"].startswith((T0 + DAY).date().isoformat())

    clock.move_to(T0 + DAY)  # exactly one day: not "more than" yet
    assert tasks.sweep_absences() == 0
    clock.move_to(T0 + DAY + MINUTE)
    assert tasks.sweep_absences() == 1
    row = fresh(table_id)
    assert (row.status, row.outcome) == (Table.Status.FINISHED, Table.Outcome.ABSENT)
    assert row.winners == [1 - absent]


def test_a_7_day_table_does_not_forfeit_after_1_2_or_3_days(clock, api_client_for, alice, bob):
    table_id = _friends_table(api_client_for, alice, bob, 7)
    assert fresh(table_id).deadline == T0 + 7 * DAY
    for days in (1, 2, 3, 6):
        clock.move_to(T0 + days * DAY + MINUTE)
        assert tasks.sweep_absences() == 0
        assert fresh(table_id).status == Table.Status.PLAYING
    # A move of the player to act is still taken at 6 days and 23 h.
    clock.move_to(T0 + 7 * DAY - HOUR)
    turn = fresh(table_id).turn_seat
    mover = api_client_for([alice, bob][turn])
    state = table(mover, table_id)
    move = state["game"]["legal_moves"][0]
    played = mover.post(
        f"/api/v1/tables/{table_id}/moves/",
        {"tile": move["tile"], "end": move["end"], "version": state["version"]},
        format="json",
    )
    assert played.status_code == 200, played.json()
    assert fresh(table_id).deadline == T0 + 7 * DAY - HOUR + 7 * DAY


def test_the_idle_close_stays_at_7_days(clock, api_client_for, alice, bob):
    # A 1-day table bob never joins waits its 7 days, as every table does (R28).
    waiting = api_client_for(alice).post(
        "/api/v1/tables/", {"seats": 2, "others": ["friend"], "move_days": 1}, format="json"
    )
    waiting = waiting.json()["id"]
    seven = _friends_table(api_client_for, alice, bob, 7)
    clock.move_to(T0 + DAY + MINUTE)
    assert tasks.sweep_idle() == 0 and tasks.sweep_absences() == 0
    clock.move_to(T0 + 7 * DAY - MINUTE)
    assert tasks.sweep_idle() == 0
    assert fresh(waiting).status == Table.Status.WAITING
    assert fresh(seven).status == Table.Status.PLAYING
    clock.move_to(T0 + 7 * DAY + MINUTE)
    assert tasks.sweep_idle() == 1
    row = fresh(waiting)
    assert (row.status, row.outcome) == (Table.Status.CLOSED, Table.Outcome.IDLE)
    # The 7-day table's turn ran out at the same time: absence comes first (R27).
    row = fresh(seven)
    assert (row.status, row.outcome) == (Table.Status.FINISHED, Table.Outcome.ABSENT)


def test_each_reminder_comes_before_its_own_deadline(clock, api_client_for, alice, bob):
    one_day = _friends_table(api_client_for, alice, bob, 1)
    two_days = _friends_table(api_client_for, alice, bob, 2)
    seven = _friends_table(api_client_for, alice, bob, 7)

    clock.move_to(T0 + 12 * HOUR - MINUTE)
    assert notice_tasks.sweep_reminders() == 0
    clock.move_to(T0 + 12 * HOUR)  # half of the 1-day table's time is left
    assert notice_tasks.sweep_reminders() == 1
    assert fresh(one_day).reminded_version == fresh(one_day).version
    clock.move_to(T0 + DAY - MINUTE)
    assert notice_tasks.sweep_reminders() == 0
    clock.move_to(T0 + DAY)  # 24 h left at the 2-day table
    assert notice_tasks.sweep_reminders() == 1
    assert fresh(two_days).reminded_version == fresh(two_days).version
    clock.move_to(T0 + 6 * DAY - MINUTE)
    assert notice_tasks.sweep_reminders() == 0
    clock.move_to(T0 + 6 * DAY)  # 24 h left at the 7-day table
    assert notice_tasks.sweep_reminders() == 1
    assert fresh(seven).reminded_version == fresh(seven).version
    assert fresh(seven).status == Table.Status.PLAYING


def test_a_rematch_keeps_the_move_time(clock, api_client_for, alice, bob):
    table_id = _friends_table(api_client_for, alice, bob, 3)
    clock.move_to(T0 + 3 * DAY + MINUTE)
    assert tasks.sweep_absences() == 1
    asked = api_client_for(bob).post(f"/api/v1/tables/{table_id}/rematch/")
    assert asked.status_code == 201, asked.json()
    assert asked.json()["move_seconds"] == 3 * 86400
    rematch = asked.json()["id"]
    accepted = api_client_for(alice).post(f"/api/v1/tables/{rematch}/rematch/accept/")
    assert accepted.json()["status"] == "playing"
    assert fresh(rematch).deadline == T0 + 3 * DAY + MINUTE + 3 * DAY


def test_join_keeps_the_creators_choice(clock, api_client_for, alice, bob, carol):
    response = api_client_for(alice).post(
        "/api/v1/tables/",
        {"seats": 3, "target": 100, "others": ["friend", "friend"], "move_days": 1},
        format="json",
    )
    created = response.json()
    join(api_client_for(bob), created["invites"][0]["token"])
    assert fresh(created["id"]).move_seconds == 86400
    join(api_client_for(carol), created["invites"][1]["token"])
    assert fresh(created["id"]).deadline == T0 + DAY
