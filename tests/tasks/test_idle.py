"""Idle close (R28): a table with no play for 7 days, counted from its creation while no
move was made (a table whose seats were never filled), ends with no winner: status
``closed``, outcome ``idle``. Not a minute before.
"""

import random
from datetime import timedelta

import pytest

from tables import services, tasks
from tables.models import Seat, Table
from tests.support.api import create_table, table
from tests.support.clock import T0
from tests.support.database import fresh, human_moves_until_bot_turn, human_table, move_count

pytestmark = pytest.mark.django_db

DAYS7 = timedelta(days=7)
MINUTE = timedelta(minutes=1)


def _assert_closed_idle(table_id: int, at) -> Table:
    row = fresh(table_id)
    assert row.status == Table.Status.CLOSED
    assert row.outcome == Table.Outcome.IDLE
    assert row.winners == []
    assert row.finished_at == at
    assert row.turn_seat is None and row.deadline is None
    assert not Seat.objects.filter(table_id=table_id, invite_token__isnull=False).exists()
    return row


def test_it_closes_a_never_filled_table_after_7_days_from_creation(clock, api_client_for, alice):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    row = fresh(created["id"])
    assert row.status == Table.Status.WAITING and row.last_move_at == T0

    clock.move_to(T0 + DAYS7 - MINUTE)
    assert tasks.sweep_idle() == 0
    clock.move_to(T0 + DAYS7)  # exactly 7 days: not "more than"
    assert tasks.sweep_idle() == 0
    assert fresh(created["id"]).status == Table.Status.WAITING

    clock.move_to(T0 + DAYS7 + MINUTE)
    assert tasks.sweep_idle() == 1
    closed = _assert_closed_idle(created["id"], T0 + DAYS7 + MINUTE)
    assert closed.state is None
    assert closed.version == row.version + 1
    assert tasks.sweep_idle() == 0
    assert fresh(created["id"]).version == closed.version
    # The share links are dead.
    invite = created["invites"][0]["token"]
    assert api_client_for(alice).get(f"/api/v1/invites/{invite}/").status_code == 404
    view = table(api_client_for(alice), created["id"])
    assert (view["status"], view["outcome"], view["winners"]) == ("closed", "idle", [])


def test_it_counts_a_half_filled_table_from_its_creation_not_from_the_joins(
    clock, api_client_for, alice, bob
):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    clock.move_to(T0 + timedelta(days=6))
    tokens = [invite["token"] for invite in created["invites"]]
    services.seat_join(token=tokens[0], user=bob)  # a join is not a move
    clock.move_to(T0 + DAYS7 + MINUTE)
    assert tasks.sweep_idle() == 1
    _assert_closed_idle(created["id"], T0 + DAYS7 + MINUTE)


def test_it_closes_a_started_table_whose_play_stopped_7_days_ago(clock, alice):
    # Alice against a bot whose task got lost (on_commit callbacks are dropped here): no
    # human is on the clock, so only the idle rule can end it.
    created = services.table_create(creator=alice, seats=2, target=100, others=["garabato"])
    clock.move_to(T0 + timedelta(hours=5))
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(1))
    assert row.deadline is None
    last = row.last_move_at
    assert move_count(row.pk) > 0 or last == T0

    clock.move_to(last + DAYS7 - MINUTE)
    assert tasks.sweep_idle() == 0
    assert tasks.sweep_absences() == 0
    assert fresh(row.pk).status == Table.Status.PLAYING

    clock.move_to(last + DAYS7 + MINUTE)
    assert tasks.sweep_idle() == 1
    closed = _assert_closed_idle(row.pk, last + DAYS7 + MINUTE)
    match = services.match_of(closed)
    assert match.is_over and match.winners == () and match.outcome == "idle"
    # A late bot task for that table does nothing.
    assert tasks.bot_play.delay(row.pk, row.version).get() is False
    assert fresh(row.pk).version == closed.version


def test_it_keeps_a_table_open_while_someone_plays_within_7_days(clock, alice):
    created = services.table_create(creator=alice, seats=2, target=100, others=["garabato"])
    step = timedelta(hours=40)  # alice always plays within her 48 hours
    for n in range(1, 6):  # 200 hours in all: more than 7 days since the creation
        clock.move_to(T0 + n * step)
        row = human_moves_until_bot_turn(created.pk, alice, random.Random(n))
        assert tasks.bot_play.delay(row.pk, row.version).get() is True
        assert tasks.sweep_idle() == 0
        assert tasks.sweep_absences() == 0
    assert T0 + 5 * step > T0 + DAYS7
    assert fresh(created.pk).status == Table.Status.PLAYING
    assert fresh(created.pk).last_move_at == T0 + 5 * step


def test_it_judges_an_overdue_human_turn_by_absence_even_if_the_idle_sweep_comes_first(
    clock, alice, bob
):
    row = human_table(alice, bob)
    absent = row.turn_seat
    clock.move_to(T0 + DAYS7 + MINUTE)
    assert tasks.sweep_idle() == 0  # not closed for idleness: forfeited (R27 came due first)
    done = fresh(row.pk)
    assert done.status == Table.Status.FINISHED
    assert done.outcome == Table.Outcome.ABSENT
    assert done.winners == [1 - absent]
