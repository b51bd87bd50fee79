"""No event is lost: each is a ``TableEvent`` row committed with its write
(``tables.services.outbox.record``), and every subscriber the apps registered
(``tables.subscribers``, ``notices.subscribers``) gets it. When the delivery after the
commit fails (the broker raises) or never runs (the process died before its kick), the row
stays undelivered and the beat relay delivers it within one period, once; an event
delivered twice (handed over, then the process died before marking it) writes one notice
and plays one bot turn, whatever its kind; two relays racing deliver each row once, a
table's rows in version order.

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
from django.core import mail
from django.db import connection
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery_app import app as celery_app
from dominoes import view_for
from moderation import services as moderation
from moderation.models import TalkMessage
from notices import subscribers as notice_subscribers
from notices.models import Notification
from tables import events, services
from tables import subscribers as table_subscribers
from tables.models import Move, Seat, TableEvent
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


def _undelivered(table_id: int) -> list[tuple[str, int, dict]]:
    rows = TableEvent.objects.filter(table_id=table_id, delivered_at__isnull=True)
    return list(rows.values_list("kind", "version", "payload"))


def _turn_notices(user, table_id: int) -> list[str]:
    notices = Notification.objects.filter(
        recipient=user, table_id=table_id, kind=Notification.Kind.YOUR_TURN
    )
    return list(notices.values_list("key", flat=True))


def test_the_apps_subscribe_the_bot_the_analysis_and_the_notices_at_startup():
    """``TablesConfig.ready`` and ``NoticesConfig.ready`` registered them: the services
    name no consumer, and every event has someone to tell."""
    assert events.subscribers_of(events.TurnStarted) == (
        table_subscribers.queue_bot_turn,
        notice_subscribers.tell_turn,
    )
    assert events.subscribers_of(events.BotTurnLost) == (table_subscribers.queue_bot_turn,)
    assert events.subscribers_of(events.AnalysisRequested) == (table_subscribers.queue_analysis,)
    assert events.subscribers_of(events.HandEnded) == (
        notice_subscribers.tell_hand_ended,
        notice_subscribers.release_talk,
    )
    assert events.subscribers_of(events.ModerationActed) == (notice_subscribers.tell_moderation,)
    for kind in events.KINDS.values():
        assert events.subscribers_of(kind), f"nobody subscribes {kind.__name__}"


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
    turn = {"seat": row.turn_seat, "bot": False, "same_player": False}
    assert _undelivered(table.pk) == [("turn_started", row.version, turn)]
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
    turn = {"seat": 1, "bot": True, "same_player": False}
    assert _undelivered(table.pk) == [("turn_started", stuck.version, turn)]
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
    each its own connection) deliver them in small batches, slowly, at the same time, to
    a subscriber that records what it gets."""
    sent: list[tuple[int, int, int]] = []
    lock = threading.Lock()

    def record(delivery):
        time.sleep(0.002)  # a broker round trip: the other relay runs meanwhile
        event = delivery.event
        with lock:
            sent.append((event.table_id, event.version, event.number))

    monkeypatch.setattr(events, "_subscribers", {events.HandEnded: [record]})
    rng = random.Random(38)
    versions = {table_id: 0 for table_id in (9001, 9002, 9003)}
    for serial in range(60):
        table_id = rng.choice(sorted(versions))
        versions[table_id] += rng.choice((0, 1))  # some writes leave two rows at one version
        TableEvent.objects.create(
            table_id=table_id,
            version=versions[table_id],
            kind=events.HandEnded.kind,
            payload={"number": serial},
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
        TableEvent.objects.create(kind="match_ended", table_id=n, delivered_at=when)
        for n, when in ((1, now - keep - timedelta(seconds=1)), (2, now), (3, None))
    )
    assert outbox.forget_delivered(now) == 1
    assert set(TableEvent.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}


@pytest.mark.parametrize("failure", FAILURES)
def test_one_relay_run_brings_back_a_lost_turn_notice_and_a_lost_bot_turn_once(
    failure, alice, bob, carol, monkeypatch
):
    """Both kinds of subscriber behind one lost kick each: the relay's first run after the
    grace tells bob it is his turn and plays the bot's turn, once; delivered again, the
    two events change nothing."""
    people = human_table(alice, bob)
    mover = alice if fresh(people.pk).turn_seat == 0 else bob
    other = bob if mover == alice else alice
    against_bot = bot_table_on_human_turn(carol)
    with monkeypatch.context() as broken:
        FAILURES[failure](broken)
        _play(people.pk, mover)
        _play(against_bot.pk, carol)
    celery_app.conf.task_always_eager = True  # the broker is back
    stuck = fresh(against_bot.pk)
    lost = list(TableEvent.objects.filter(delivered_at__isnull=True).order_by("pk"))
    assert [(row.table_id, row.kind, row.payload["bot"]) for row in lost] == [
        (people.pk, "turn_started", False),
        (against_bot.pk, "turn_started", True),
    ]
    assert _turn_notices(other, people.pk) == []

    assert outbox.relay(timezone.now() + PERIOD) >= 2
    told = fresh(people.pk).version
    assert _turn_notices(other, people.pk) == [str(told)]
    played = fresh(against_bot.pk)
    assert played.version > stuck.version, "the bot did not play"
    assert not TableEvent.objects.filter(delivered_at__isnull=True).exists()
    moves = move_count(against_bot.pk)

    TableEvent.objects.filter(pk__in=[row.pk for row in lost]).update(delivered_at=None)
    assert outbox.relay(timezone.now() + PERIOD) == 2
    assert _turn_notices(other, people.pk) == [str(told)]
    assert (fresh(against_bot.pk).version, move_count(against_bot.pk)) == (played.version, moves)


def _world() -> dict:
    """What the subscribers' tasks write: every notice as it stands, the mail sent, the
    moves, the tables' versions and the talk."""
    notices = Notification.objects.order_by("pk").values_list(
        "pk", "recipient_id", "table_id", "kind", "key", "read_at", "email", "push", "payload"
    )
    return {
        "notices": list(notices),
        "mail": len(mail.outbox),
        "moves": Move.objects.count(),
        "versions": sorted(Seat.objects.values_list("table_id", "table__version").distinct()),
        "talk": TalkMessage.objects.count(),
    }


def test_every_subscriber_does_nothing_when_its_events_are_delivered_again(
    alice, bob, carol, settings
):
    """Seats taken and left, talk, turns of people and of a bot, a hand's end, a match's end
    and a rematch offered, all delivered when written; then every row is delivered a
    second time (the relay after a process died before marking them): nothing changes."""
    settings.BOT_DELAY_SECONDS = 0
    table = human_table(alice, bob)
    assert moderation.talk_post(user=alice, table_id=table.pk, text="hola")
    for _ in range(300):  # random moves until a hand ends and the next one is dealt
        if TableEvent.objects.filter(table_id=table.pk, kind="hand_ended").exists():
            break
        row = fresh(table.pk)
        _play(table.pk, alice if row.turn_seat == 0 else bob)
    services.table_abandon(table_id=table.pk, user=bob)
    services.rematch_offer(table_id=table.pk, user=alice)
    waiting = services.table_create(creator=alice, seats=3, target=100, others=["friend"] * 2)
    seat = Seat.objects.filter(table=waiting, index=1).get()
    services.seat_join(token=seat.invite_token, user=carol)
    services.table_abandon(table_id=waiting.pk, user=carol)  # a guest gives her seat up
    against_bot = bot_table_on_human_turn(carol)
    _play(against_bot.pk, carol)

    kinds = set(TableEvent.objects.values_list("kind", flat=True))
    assert kinds >= {
        "seat_taken",
        "seat_left",
        "talk_posted",
        "turn_started",
        "hand_ended",
        "match_ended",
        "rematch_offered",
    }, kinds
    assert not TableEvent.objects.filter(delivered_at__isnull=True).exists()
    before = _world()
    assert before["notices"], "the first deliveries wrote no notice"

    TableEvent.objects.update(delivered_at=None)
    assert outbox.relay(timezone.now() + PERIOD) == TableEvent.objects.count()
    assert _world() == before
