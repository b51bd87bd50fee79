"""No side effect is lost: each is a ``TableEvent`` row committed with its write
(``tables.services.outbox``). When the send after the commit fails (the broker raises) or
never runs (the process died before its kick), the row stays undelivered and the beat
relay sends it within one period, once; a row delivered twice (sent, then the process died
before marking it) writes one notice and plays one bot turn; two relays racing send each
row once, a table's rows in version order.

Against the real PostgreSQL (row locks, ``skip_locked``); tasks run inline
(``CELERY_TASK_ALWAYS_EAGER``) once the broker is back.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest
from celery.app.task import Task
from django.conf import settings
from django.db import connection
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery_app import app as celery_app
from dominoes import view_for
from notices.models import Notification
from tables import services
from tables.models import TableEvent
from tables.services import outbox
from tests.support.database import bot_table_on_human_turn, fresh, human_table, move_count

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: The relay's beat period: an undelivered row is sent by the first run after it.
PERIOD = timedelta(seconds=settings.CELERY_BEAT_SCHEDULE["relay-table-events"]["schedule"])


@pytest.fixture(autouse=True)
def _eager_again():
    """Tasks run inline again after each test, whatever it switched off."""
    yield
    celery_app.conf.task_always_eager = True


def _broker_raises(monkeypatch):
    """A broker that refuses every task (Redis away): sends are logged, not raised."""

    def refuse(self, args=None, kwargs=None, **options):
        raise OperationalError("Error 111 connecting to redis. Connection refused.")

    celery_app.conf.task_always_eager = False  # a broker: the tasks are queued, not run
    monkeypatch.setattr(Task, "apply_async", refuse)


def _process_dies(monkeypatch):
    """The process exits between the commit and its kick: the kick never runs."""
    monkeypatch.setattr(outbox, "_kick", lambda *args: None)


FAILURES = {"broker_raises": _broker_raises, "process_dies": _process_dies}


def _play(table_id: int, user) -> None:
    """``user``, to move at ``table_id``, plays a random legal move through the service."""
    row = fresh(table_id)
    play = random.Random(row.version).choice(
        view_for(services.match_of(row), row.turn_seat).legal_moves
    )
    services.move_play(
        table_id=table_id, user=user, tile=str(play.tile), end=play.end, version=row.version
    )


def _undelivered(table_id: int) -> list[tuple[str, list]]:
    rows = TableEvent.objects.filter(table_id=table_id, delivered_at__isnull=True)
    return list(rows.values_list("task", "args"))


def _turn_notices(user, table_id: int) -> list[str]:
    notices = Notification.objects.filter(
        recipient=user, table_id=table_id, kind=Notification.Kind.YOUR_TURN
    )
    return list(notices.values_list("key", flat=True))


@pytest.mark.parametrize("failure", FAILURES)
def test_a_turn_notice_lost_after_the_commit_is_relayed_once(failure, alice, bob, monkeypatch):
    table = human_table(alice, bob)
    mover, other = (alice, bob) if fresh(table.pk).turn_seat == 0 else (bob, alice)
    with monkeypatch.context() as broken:
        FAILURES[failure](broken)
        _play(table.pk, mover)
    celery_app.conf.task_always_eager = True  # the broker is back
    row = fresh(table.pk)
    assert row.turn_seat == (1 if mover == alice else 0), "the turn did not pass"
    assert _undelivered(table.pk) == [(outbox.TURN_NOTICE, [table.pk, row.version])]
    assert _turn_notices(other, table.pk) == []
    lost = TableEvent.objects.get(table_id=table.pk, delivered_at__isnull=True)
    assert outbox.relay() == 0, "within its grace the row is the kick's, not the relay's"

    assert outbox.relay(timezone.now() + PERIOD) == 1
    assert _turn_notices(other, table.pk) == [str(row.version)]
    assert _undelivered(table.pk) == []
    assert outbox.relay(timezone.now() + PERIOD) == 0

    # Sent, then the process died before marking it: delivered again, still one notice.
    TableEvent.objects.filter(pk=lost.pk).update(delivered_at=None)
    assert outbox.relay(timezone.now() + PERIOD) == 1
    assert _turn_notices(other, table.pk) == [str(row.version)]


@pytest.mark.parametrize("failure", FAILURES)
def test_a_bot_turn_lost_after_the_commit_is_relayed_once(failure, alice, monkeypatch):
    table = bot_table_on_human_turn(alice)
    with monkeypatch.context() as broken:
        FAILURES[failure](broken)
        _play(table.pk, alice)
    celery_app.conf.task_always_eager = True  # the broker is back
    stuck = fresh(table.pk)
    assert stuck.turn_seat == 1, "the bot draws until it can play: its turn"
    assert _undelivered(table.pk) == [(outbox.BOT_PLAY, [table.pk, stuck.version])]
    lost = TableEvent.objects.get(table_id=table.pk, delivered_at__isnull=True)
    assert outbox.relay() == 0

    assert outbox.relay(timezone.now() + PERIOD) >= 1
    played = fresh(table.pk)
    assert played.version > stuck.version, "the bot did not play"
    assert _undelivered(table.pk) == []
    moves = move_count(table.pk)

    # The bot's task delivered a second time: the table moved on, nothing is played.
    TableEvent.objects.filter(pk=lost.pk).update(delivered_at=None)
    assert outbox.relay(timezone.now() + PERIOD) == 1
    assert (fresh(table.pk).version, move_count(table.pk)) == (played.version, moves)


def test_two_relays_racing_send_each_row_once_in_table_order(monkeypatch):
    """Three tables' rows, written in a shuffled order, all waiting: two relays (threads,
    each its own connection) send them in small batches, slowly, at the same time."""
    sent: list[tuple[int, int, int]] = []
    lock = threading.Lock()

    def record(self, args=None, kwargs=None, **options):
        time.sleep(0.002)  # a broker round trip: the other relay runs meanwhile
        with lock:
            sent.append(tuple(args))

    monkeypatch.setattr(Task, "apply_async", record)
    celery_app.conf.task_always_eager = False  # sent to the recording broker, not run
    rng = random.Random(38)
    versions = {table_id: 0 for table_id in (9001, 9002, 9003)}
    for serial in range(60):
        table_id = rng.choice(sorted(versions))
        versions[table_id] += rng.choice((0, 1))  # some writes leave two rows at one version
        TableEvent.objects.create(
            table_id=table_id,
            version=versions[table_id],
            task=outbox.TURN_NOTICE,
            args=[table_id, versions[table_id], serial],
        )
    later = timezone.now() + PERIOD
    errors: list[BaseException] = []

    def relay_until_done():
        try:
            for _ in range(500):
                if not TableEvent.objects.filter(delivered_at__isnull=True).exists():
                    return
                outbox.relay(later, batch=2)
        except BaseException as error:  # reported by the test below
            errors.append(error)
        finally:
            connection.close()

    relays = [threading.Thread(target=relay_until_done) for _ in range(2)]
    for relay in relays:
        relay.start()
    for relay in relays:
        relay.join(60)
    assert not errors, errors
    assert sorted(serial for _, _, serial in sent) == list(range(60)), "a row sent twice or never"
    for table_id in versions:
        theirs = [(version, serial) for table, version, serial in sent if table == table_id]
        assert theirs == sorted(theirs), f"table {table_id} out of order"
    assert not TableEvent.objects.filter(delivered_at__isnull=True).exists()


def test_delivered_rows_are_forgotten_after_a_day_and_undelivered_ones_kept():
    now = timezone.now()
    keep = timedelta(seconds=settings.OUTBOX_KEEP_SECONDS)
    old, recent, waiting = (
        TableEvent.objects.create(task=outbox.MATCH_OVER_NOTICE, args=[n], delivered_at=when)
        for n, when in ((1, now - keep - timedelta(seconds=1)), (2, now), (3, None))
    )
    assert outbox.forget_delivered(now) == 1
    assert set(TableEvent.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}
