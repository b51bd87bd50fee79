"""When every seat still playing is a bot (the people left or ran out of time), the bots
play the match to its end at once, through the bot-turn tasks, without waiting for any
deadline."""

import pytest

from tables import services
from tables.models import Seat, Table
from tests.support.database import fresh

pytestmark = pytest.mark.django_db


def _table(rules: str, users, bots: list[str], capture) -> Table:
    others = ["friend"] * (len(users) - 1) + bots
    with capture(execute=True):
        table = services.table_create(
            creator=users[0], seats=len(others) + 1, others=others, rules=rules
        )
        seats = Seat.objects.filter(table=table, index__gt=0, bot="").order_by("index")
        for seat, user in zip(seats, users[1:], strict=True):
            services.seat_join(token=seat.invite_token, user=user)
    return fresh(table.pk)


def test_first_double_bots_finish_once_both_people_left(
    alice, bob, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    row = _table("first_double", [alice, bob], ["garabato", "nino"], capture)
    assert row.status == Table.Status.PLAYING
    for user in (alice, bob):
        with capture(execute=True):
            services.table_abandon(table_id=row.pk, user=user)
    row = fresh(row.pk)
    assert row.status == Table.Status.FINISHED, (row.turn_seat, row.deadline)
    assert set(row.winners) <= {2, 3}


def test_first_double_bots_finish_once_one_left_and_the_other_ran_out_of_time(
    alice, bob, django_capture_on_commit_callbacks
):
    """bob's own move time is the only wait: once it has run out (R27) the bots play the
    hand to its end at once, with no deadline of theirs."""
    from datetime import timedelta

    capture = django_capture_on_commit_callbacks
    row = _table("first_double", [alice, bob], ["garabato", "nino"], capture)
    users = {0: alice, 1: bob}
    with capture(execute=True):
        services.table_abandon(table_id=row.pk, user=users[1 - (row.turn_seat == 1)])
    row = fresh(row.pk)
    if row.status == Table.Status.PLAYING and row.deadline is not None:
        with capture(execute=True):
            later = row.deadline + timedelta(seconds=1)
            assert services.table_forfeit_overdue(table_id=row.pk, now=later)
    row = fresh(row.pk)
    assert row.status == Table.Status.FINISHED and row.deadline is None
    assert set(row.winners) <= {2, 3}
