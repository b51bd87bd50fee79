"""A worker dies in the middle of its work (issue 13): during a bot's turn and during an
e-mail batch.

- A real worker is killed (SIGKILL) while Abuela Quelonia thinks; a new worker starts,
  and the turn is sent again once it has waited ``BOT_STUCK_SECONDS`` (a read): the bot
  plays it once, and the Move rows replay to the snapshot.
- The same, in this process, at each point of ``bot_play`` (before the lock, before the
  commit, after the commit): re-running the task applies the turn exactly once.
- An e-mail batch (``notices.tasks.record_match_over``) killed between two recipients, during a
  send (the SMTP connection drops) and just after a send (before it is recorded): run
  again, every recipient gets the e-mail exactly once.
"""

from __future__ import annotations

import random
import re
import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone

from notices import email
from notices import tasks as notice_tasks
from tables import services, tasks
from tables.models import EmailDelivery, Move, Table
from tables.services import outbox, transitions
from tests.faults.processes import (
    create_bot_table,
    fresh_row,
    play_random_move,
    send_task,
    service_env,
    start_web,
    start_worker,
    token_client,
    wait_for,
)
from tests.support.database import fresh, human_moves_until_bot_turn, human_table
from tests.support.log import assert_replays

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

BOT_STUCK_SECONDS = 2


class WorkerKilled(BaseException):
    """The process dies here: nothing after this point runs, no ``except Exception``."""


def _bot_tasks(worker, state: str) -> int:
    """How many ``bot_play`` tasks the worker's log shows in ``state`` (received, ...)."""
    return len(re.findall(rf"tables\.tasks\.bot_play\[[^\]]+\] {state}", worker.output(10**7)))


@pytest.mark.django_db(transaction=True)  # the worker must see the test's rows
def test_a_worker_killed_while_the_bot_thinks_is_replaced_and_the_turn_played_once(
    private_redis, processes, token_of, alice, tmp_path
):
    env = service_env(private_redis.url, BOT_STUCK_SECONDS=str(BOT_STUCK_SECONDS))
    web, base = start_web(env, tmp_path / "web.log", workers=1)
    processes.append(web)
    first = start_worker(env, tmp_path / "worker-1.log")
    processes.append(first)
    client = token_client(base, token_of(alice))
    table_id = create_bot_table(client, "quelonia")
    wait_for(
        lambda: fresh_row(table_id).turn_seat == 0, lambda: f"the bot's lead:\n{first.output()}", 60
    )

    wait_for(lambda: _bot_tasks(first, "succeeded") == _bot_tasks(first, "received"), "idle")
    received = _bot_tasks(first, "received")
    played = play_random_move(client, table_id, random.Random(5))
    assert played.status_code == 200, played.text
    bot_turn = fresh_row(table_id)
    wait_for(
        lambda: _bot_tasks(first, "received") > received,
        lambda: f"the worker taking the bot's turn:\n{first.output()}",
        30,
        0.005,
    )
    first.kill()  # while Quelonia thinks (she takes most of a second)
    bot_plays = Move.objects.filter(table_id=table_id, seat=1, automatic=False).count()
    print("killed mid-turn:", fresh_row(table_id).version == bot_turn.version)  # shown with -s

    second = start_worker(env, tmp_path / "worker-2.log")
    processes.append(second)

    def played_once() -> bool:
        assert second.alive(), second.output()
        # The beat's stuck-bot sweep, on the new worker, re-sends the lost turn (reads
        # write nothing); once the bot has played, a sweep finds nothing to send.
        send_task(env, "tables.tasks.sweep_stuck_bots")
        row = fresh_row(table_id)
        return row.version > bot_turn.version and (
            row.turn_seat == 0 or row.status != Table.Status.PLAYING
        )

    wait_for(
        played_once,
        lambda: (
            f"the bot's turn after the kill ({fresh_row(table_id).__dict__}):\n"
            f"{second.output()}\n{web.output()}"
        ),
        90,
        0.5,
    )
    if bot_turn.turn_seat == 1:
        after = Move.objects.filter(table_id=table_id, seat=1, automatic=False).count()
        assert after >= bot_plays
    assert_replays(table_id)


@pytest.mark.django_db  # in this process: on_commit work runs only when the test says
@pytest.mark.parametrize("point", ["before_lock", "before_commit", "after_commit"])
def test_a_bot_turn_killed_at_any_point_is_played_once_when_run_again(
    alice, monkeypatch, django_capture_on_commit_callbacks, point
):
    created = services.table_create(creator=alice, seats=3, target=100, others=["nino", "nino"])
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(6))
    moves_before = Move.objects.filter(table_id=row.pk).count()

    def die(*args, **kwargs):
        raise WorkerKilled(point)

    if point == "before_lock":
        monkeypatch.setattr(transitions, "lock", die)
    elif point == "before_commit":
        monkeypatch.setattr(transitions, "follow_up", die)  # runs inside the transaction
    else:
        monkeypatch.setattr(outbox, "_send", die)  # the next turn's task, on commit
    with pytest.raises(WorkerKilled):
        with django_capture_on_commit_callbacks(execute=True):  # as if committed
            services.bot_play(table_id=row.pk, version=row.version)
    monkeypatch.undo()

    killed = fresh(row.pk)
    if point == "after_commit":
        assert killed.version == row.version + 1  # committed: the re-run must do nothing
    else:
        assert killed.version == row.version  # rolled back
        assert Move.objects.filter(table_id=row.pk).count() == moves_before
    sent = []
    monkeypatch.setattr(
        tasks.bot_play, "apply_async", lambda args, kwargs=None, **o: sent.append(tuple(args))
    )
    first_run = tasks.bot_play.apply(args=(row.pk, row.version)).get()
    assert first_run is (point != "after_commit")
    assert tasks.bot_play.apply(args=(row.pk, row.version)).get() is False  # and again
    after = fresh(row.pk)
    assert after.version == row.version + 1
    chosen = Move.objects.filter(table_id=row.pk, automatic=False, seat=row.turn_seat)
    assert chosen.filter(created_at__gte=row.turn_started_at).count() == 1
    assert_replays(row.pk)
    if point == "after_commit" and after.turn_seat != 0 and after.status == "playing":
        # The next bot's task died with the worker: the stuck-bot resend takes it.
        Table.objects.filter(pk=row.pk).update(turn_started_at=row.turn_started_at)
        with monkeypatch.context() as later:
            later.setattr(timezone, "now", lambda: after.turn_started_at + _minutes(5))
            with django_capture_on_commit_callbacks(execute=True):  # its event, committed
                assert tasks.sweep_stuck_bots() == 1
        assert sent[-1] == (row.pk, after.version)


def _minutes(n: int):
    from datetime import timedelta

    return timedelta(minutes=n)


class _Smtp(EmailBackend):
    """The outbox; ``FAULT`` may make one send fail (the SMTP connection drops)."""

    FAULT: dict = {}

    def send_messages(self, messages):
        for message in messages:
            if message.to == [self.FAULT.get("drop")]:
                self.FAULT.pop("drop")
                raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


@pytest.mark.django_db
@pytest.mark.parametrize("point", ["between_recipients", "during_a_send", "after_a_send"])
def test_an_e_mail_batch_killed_at_any_point_reaches_each_recipient_once(
    alice, bob, mallory, carol, monkeypatch, settings, point
):
    settings.EMAIL_BACKEND = f"{__name__}._Smtp"
    settings.PRESENCE_SECONDS = 0  # nobody counts as at the table: everyone is mailed
    row = human_table(alice, bob, mallory, carol)
    services.table_abandon(table_id=row.pk, user=bob)
    mail.outbox.clear()
    people = [alice, bob, mallory, carol]
    second = people[1]

    if point == "between_recipients":
        real = email.deliver
        calls = []

        def dies_before_the_second(user_id, *args):
            calls.append(user_id)
            if len(calls) == 2:
                raise WorkerKilled(point)
            return real(user_id, *args)

        monkeypatch.setattr(email, "deliver", dies_before_the_second)
        with pytest.raises(WorkerKilled):
            notice_tasks.record_match_over.apply(args=(row.pk,))
        monkeypatch.undo()
    elif point == "during_a_send":
        _Smtp.FAULT["drop"] = second.email  # the task retries (OSError), the rest follow
    else:
        real_save = EmailDelivery.save

        def dies_before_recording(self, *args, **kwargs):
            if self.status == EmailDelivery.Status.SENT and self.recipient_id == second.pk:
                raise WorkerKilled(point)
            return real_save(self, *args, **kwargs)

        monkeypatch.setattr(EmailDelivery, "save", dies_before_recording)
        with pytest.raises(WorkerKilled):
            notice_tasks.record_match_over.apply(args=(row.pk,))
        monkeypatch.undo()

    notice_tasks.record_match_over.apply(args=(row.pk,), throw=False)  # the task runs again
    notice_tasks.record_match_over.apply(args=(row.pk,))  # and once more, a duplicate
    received = sorted(address for message in mail.outbox for address in message.to)
    assert received == sorted(user.email for user in people)
    assert not _Smtp.FAULT
