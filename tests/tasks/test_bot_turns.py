"""Bot turns: a move that leaves the turn with a bot schedules ``tables.tasks.bot_play``
(table id, version) once the write is committed; the task re-reads the table and plays
only if it is still at that version, so a duplicated, retried or stale task never plays
twice (R16). The bot decides from its own seat's view only (R31).
"""

import random

import pytest

from dominoes import SeatView
from tables import services, tasks
from tables.models import Move, Table
from tables.services import play as play_services
from tests.support.api import create_table, play_one, table
from tests.support.database import fresh, human_moves_until_bot_turn, move_count

pytestmark = pytest.mark.django_db


def _bot_table(alice, others=("garabato",), target=100) -> Table:
    return services.table_create(
        creator=alice, seats=1 + len(others), target=target, others=list(others)
    )


def test_it_plays_a_duplicated_bot_task_once(alice):
    created = _bot_table(alice)
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(1))
    version, moves, snapshot = row.version, move_count(row.pk), row.state
    bot_seat = row.turn_seat

    assert tasks.bot_play.delay(row.pk, version).get() is True
    after = fresh(row.pk)
    assert after.version == version + 1
    new = list(Move.objects.filter(table_id=row.pk).order_by("hand__number", "sequence"))[moves:]
    assert new, "the bot played nothing"
    assert (new[0].seat, new[0].kind, new[0].automatic) == (bot_seat, "play", False)
    assert all(move.automatic for move in new[1:])

    # The same task again (a duplicate, or a retry after a lost ack): nothing happens.
    assert tasks.bot_play.delay(row.pk, version).get() is False
    again = fresh(row.pk)
    assert again.version == after.version
    assert again.state == after.state
    assert move_count(row.pk) == moves + len(new)
    assert snapshot != after.state


def test_it_ignores_a_stale_bot_task(alice):
    created = _bot_table(alice, others=("garabato", "nino"))
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(2))
    assert tasks.bot_play.delay(row.pk, row.version).get() is True
    current = fresh(row.pk)
    moves = move_count(row.pk)

    # Scheduled for a version the table has left: does nothing, whoever is to move now.
    for stale in (row.version, row.version - 1, 0):
        assert tasks.bot_play.delay(row.pk, stale).get() is False
    # A version from the future, and a table that does not exist: nothing either.
    assert tasks.bot_play.delay(row.pk, current.version + 5).get() is False
    assert tasks.bot_play.delay(row.pk + 1000, 1).get() is False
    unchanged = fresh(row.pk)
    assert (unchanged.version, unchanged.state) == (current.version, current.state)
    assert move_count(row.pk) == moves


def test_it_does_nothing_when_a_human_is_to_move(alice):
    created = _bot_table(alice)
    row = fresh(created.pk)
    if row.turn_seat != 0:
        assert tasks.bot_play.delay(row.pk, row.version).get() is True
        row = fresh(created.pk)
    assert row.turn_seat == 0
    assert tasks.bot_play.delay(row.pk, row.version).get() is False
    assert fresh(row.pk).version == row.version


def test_it_does_nothing_once_the_match_is_over(alice):
    created = _bot_table(alice)
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(3))
    services.table_abandon(table_id=row.pk, user=alice)
    finished = fresh(row.pk)
    assert finished.status == Table.Status.FINISHED
    assert tasks.bot_play.delay(row.pk, finished.version).get() is False
    assert tasks.bot_play.delay(row.pk, row.version).get() is False
    assert fresh(row.pk).version == finished.version


def test_it_lets_the_bot_read_only_its_own_seats_view(alice, monkeypatch):
    seen = []
    real = play_services.choose_play

    def spy(name, view, seed=None):
        seen.append((name, view))
        return real(name, view, seed=seed)

    monkeypatch.setattr(play_services, "choose_play", spy)
    created = _bot_table(alice, others=("quelonia", "garabato"))
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(4))
    assert tasks.bot_play.delay(row.pk, row.version).get() is True
    assert len(seen) == 1
    name, view = seen[0]
    assert type(view) is SeatView
    assert view.seat == row.turn_seat
    assert name == ("quelonia", "garabato")[row.turn_seat - 1]
    assert sum(view.tile_counts) > len(view.tiles)  # it holds its tiles, not the others'


def test_it_schedules_the_bot_turn_on_commit_with_the_version_and_delay(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.BOT_DELAY_SECONDS = 5
    calls = []
    monkeypatch.setattr(
        tasks.bot_play, "apply_async", lambda args, **options: calls.append((args, options))
    )
    created = _bot_table(alice)
    row = fresh(created.pk)
    if row.turn_seat == 1:  # the bot leads: table_create scheduled it
        assert calls == []  # nothing before the commit (dropped: the test's transaction)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            services.bot_play(table_id=row.pk, version=row.version)
        row = fresh(created.pk)
    assert row.turn_seat == 0
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        human_moves_until_bot_turn(row.pk, alice, random.Random(5))
    assert calls == [], "scheduled before the commit"
    for callback in callbacks:
        callback()
    row = fresh(created.pk)
    [(args, options)] = calls
    assert args == (row.pk, row.version)
    # BOT_DELAY_SECONDS counted from the event's write (the callbacks ran a moment later)
    assert 4 < options["countdown"] <= 5, options


def test_it_plays_every_bot_turn_through_the_task_until_the_match_ends(
    api_client_for, alice, django_capture_on_commit_callbacks
):
    client = api_client_for(alice)
    rng = random.Random(6)
    with django_capture_on_commit_callbacks(execute=True):
        created = create_table(client, 2, ["garabato"], target=50)
    table_id = created["id"]
    for _ in range(200):
        state = table(client, table_id)
        if state["status"] != "playing":
            break
        # Whenever alice looks, the bot has already moved: the turn is hers.
        assert state["turn_seat"] == 0, state
        with django_capture_on_commit_callbacks(execute=True):
            response = play_one(client, state, rng)
        assert response.status_code == 200, response.json()
    row = fresh(table_id)
    assert row.status == Table.Status.FINISHED
    assert row.outcome == Table.Outcome.TARGET
    assert len(row.winners) == 1
    bot_plays = Move.objects.filter(table_id=table_id, seat=1, kind="play", automatic=False)
    assert bot_plays.exists()
