"""A seat that leaves a ``first_double`` hand (``leavers_sit_out``) is in the log the moment
it leaves: its Hand row's ``departures`` is written in the same write, so the Hand and Move
rows replay to exactly the stored snapshot then, after the moves that follow, and at the
hand's end (``tests.support.log.assert_replays``, the project's log-vs-state check)."""

import importlib
import random

import pytest

from dominoes import view_for
from tables import services
from tables.models import Hand, Seat, Table
from tests.support.database import fresh
from tests.support.log import assert_replays

pytestmark = pytest.mark.django_db


def _first_double_table(*users) -> Table:
    """A started ``first_double`` table of people, ``users[0]`` at seat 0."""
    table = services.table_create(
        creator=users[0],
        seats=len(users),
        others=["friend"] * (len(users) - 1),
        rules="first_double",
    )
    for seat, user in zip(
        Seat.objects.filter(table=table, index__gt=0).order_by("index"), users[1:], strict=True
    ):
        services.seat_join(token=seat.invite_token, user=user)
    return fresh(table.pk)


def _move(row: Table, users: dict, rng: random.Random) -> None:
    """The seat to act plays a random legal move, else draws (its own choice here)."""
    view = view_for(services.match_of(row), row.turn_seat)
    user = users[row.turn_seat]
    if view.legal_moves:
        play = rng.choice(view.legal_moves)
        services.move_play(
            table_id=row.pk, user=user, tile=str(play.tile), end=play.end, version=row.version
        )
    else:
        action = "draw" if "draw" in view.choices else "pass"
        services.move_play(table_id=row.pk, user=user, action=action, version=row.version)


@pytest.mark.parametrize("leaver_acts", [True, False], ids=["on-its-turn", "out-of-turn"])
def test_the_log_replays_to_the_state_the_moment_a_seat_leaves_and_after(
    leaver_acts, alice, bob, carol
):
    users = {0: alice, 1: bob, 2: carol}
    rng = random.Random(43)
    row = _first_double_table(alice, bob, carol)
    for _ in range(2):
        _move(row, users, rng)
        row = fresh(row.pk)
    assert row.status == Table.Status.PLAYING
    played = len(services.match_of(row).hand.actions)
    leaver = row.turn_seat if leaver_acts else (row.turn_seat + 1) % 3
    services.table_abandon(table_id=row.pk, user=users[leaver])
    row = fresh(row.pk)
    assert row.status == Table.Status.PLAYING  # two still play: the hand goes on
    hand = Hand.objects.get(table=row, number=0)
    assert hand.ended_at is None and hand.departures == [[leaver, played]]
    assert_replays(row.pk)  # the moment it left
    del users[leaver]
    for _ in range(300):
        if row.status != Table.Status.PLAYING:
            break
        _move(row, users, rng)
        row = fresh(row.pk)
        assert_replays(row.pk)  # after every move that followed
    assert row.status == Table.Status.FINISHED and leaver not in row.winners
    assert Hand.objects.get(table=row, number=0).departures == [[leaver, played]]
    assert_replays(row.pk)


def test_the_log_replays_when_the_last_but_one_leaves_and_the_hand_stays_unfinished(
    alice, bob, carol
):
    """Two leave a three-seat hand: the one left wins the match at once, the hand never
    ends, and the log still names both who left."""
    users = {0: alice, 1: bob, 2: carol}
    row = _first_double_table(alice, bob, carol)
    _move(row, users, random.Random(7))
    row = fresh(row.pk)
    services.table_abandon(table_id=row.pk, user=bob)
    assert_replays(row.pk)
    services.table_abandon(table_id=row.pk, user=carol)
    row = fresh(row.pk)
    assert row.status == Table.Status.FINISHED and row.winners == [0]
    hand = Hand.objects.get(table=row, number=0)
    assert hand.ended_at is None and [seat for seat, _ in hand.departures] == [1, 2]
    assert_replays(row.pk)


def test_the_migration_writes_the_departures_of_hands_still_being_played(alice, bob, carol):
    """A table saved before, whose Hand row was to get its departures only at the hand's
    end: migration 0018 copies them from the snapshot, and the log replays again."""
    from django.apps import apps

    copy = importlib.import_module("tables.migrations.0018_hand_departures_as_they_happen")
    users = {0: alice, 1: bob, 2: carol}
    row = _first_double_table(alice, bob, carol)
    _move(row, users, random.Random(5))
    services.table_abandon(table_id=row.pk, user=users[fresh(row.pk).turn_seat])
    left = Hand.objects.get(table=row, number=0).departures
    Hand.objects.filter(table=row).update(departures=[])  # as the old code left it
    copy.copy_departures(apps, None)
    assert Hand.objects.get(table=row, number=0).departures == left != []
    assert_replays(row.pk)
