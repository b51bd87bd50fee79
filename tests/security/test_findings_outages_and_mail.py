"""Regression tests for issue 13's service findings (4, 5): each is named
for its finding and failed on the commit before its fix.

- 4: a cache or broker outage never refuses a move: the rate limit fails open (logged),
  a side effect that cannot be queued after the commit is logged, and the bot turn it
  carried is sent again later.
- 5: one e-mail per recipient, recorded (``EmailDelivery``); a refused address is marked
  failed and does not make the others receive it again."""

from __future__ import annotations

import logging
import random
import smtplib
from datetime import timedelta

import pytest
import redis
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone

from core.throttling import ScopedWriteRateThrottle
from notices import email
from notices import services as notice_services
from notices import tasks as notice_tasks
from tables import models, services, tasks
from tables.models import Move, Seat, Table
from tests.support.api import play_one, table, token_client
from tests.support.broker import recording_apply_async
from tests.support.database import bot_table_on_human_turn, fresh, human_table


@pytest.fixture
def not_eager():
    """Tasks go to the broker instead of running inline, for this test."""
    from config.celery_app import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = before


class _BrokenCache:
    """A cache whose server is down: every call raises what django-redis/redis-py raise."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

        return fail


# --- finding 4: Redis down -----------------------------------------------------------------


@pytest.mark.django_db
def test_finding_4_a_cache_outage_lets_moves_through_and_logs_each_failure(
    alice, monkeypatch, caplog
):
    row = bot_table_on_human_turn(alice)
    monkeypatch.setattr(ScopedWriteRateThrottle, "cache", _BrokenCache())
    client = token_client(alice, raise_request_exception=False)
    state = client.get(f"/api/v1/tables/{row.pk}/").json()
    moves_before = Move.objects.filter(table_id=row.pk).count()
    with caplog.at_level(logging.WARNING, logger="core.throttling"):
        response = play_one(client, state, random.Random(1))
    assert response.status_code == 200, response.content
    assert Move.objects.filter(table_id=row.pk).count() > moves_before
    assert fresh(row.pk).version > state["version"]
    failures = [r for r in caplog.records if r.name == "core.throttling"]
    assert len(failures) == 1, failures  # one line per refused cache call, not silence
    assert "rate limit" in failures[0].getMessage()


@pytest.mark.django_db
def test_finding_4_a_move_whose_bot_turn_cannot_be_queued_is_applied_and_resent_later(
    alice, monkeypatch, caplog, django_capture_on_commit_callbacks, not_eager
):
    row = bot_table_on_human_turn(alice)
    # The broker is down: publishing raises (the Redis result store's own error, after its
    # retries, is a RuntimeError; kombu's is OperationalError).

    def broker_down(args, **options):
        raise RuntimeError("Retry limit exceeded while trying to reconnect to the Celery result")

    monkeypatch.setattr(tasks.bot_play, "apply_async", broker_down)
    client = token_client(alice, raise_request_exception=False)
    rng = random.Random(2)
    for _ in range(20):  # until a move of alice's gives the turn to the bot
        state = client.get(f"/api/v1/tables/{row.pk}/").json()
        with caplog.at_level(logging.ERROR, logger="tables.services"):
            with django_capture_on_commit_callbacks(execute=True):
                response = play_one(client, state, rng)
        assert response.status_code == 200, response.content
        if fresh(row.pk).turn_seat == 1:
            break
    stuck = fresh(row.pk)
    assert stuck.turn_seat == 1 and stuck.status == Table.Status.PLAYING
    assert any(
        "turn_started" in r.getMessage() and "queue_bot_turn" in r.getMessage()
        for r in caplog.records
        if r.levelname == "ERROR"
    )

    # The broker is back: once the turn has waited BOT_STUCK_SECONDS, the sweep sends it.
    sent = []
    monkeypatch.setattr(tasks.bot_play, "apply_async", recording_apply_async(sent))
    Table.objects.filter(pk=row.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):  # the lost turn's event, committed
        assert tasks.sweep_stuck_bots() == 1
    assert sent == [(row.pk, stuck.version)]


# --- finding 5: one delivery per recipient -------------------------------------------------

REFUSED: set[str] = set()


class RefusingBackend(EmailBackend):
    """The locmem outbox, except that the SMTP server refuses the addresses in REFUSED."""

    def send_messages(self, messages):
        for message in messages:
            refused = [address for address in message.recipients() if address in REFUSED]
            if refused:
                raise smtplib.SMTPRecipientsRefused(
                    {address: (550, b"5.1.1 no such user") for address in refused}
                )
        return super().send_messages(messages)


@pytest.fixture
def refusing_mail(settings):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    settings.PRESENCE_SECONDS = 0  # nobody counts as at the table: every notice is mailed
    REFUSED.clear()
    yield REFUSED
    REFUSED.clear()


def _to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


@pytest.mark.django_db
def test_finding_5_a_refused_address_does_not_resend_the_match_over_mail_to_the_others(
    alice, bob, mallory, refusing_mail
):
    row = human_table(alice, bob, mallory)
    services.table_abandon(table_id=row.pk, user=alice)
    mail.outbox.clear()
    refusing_mail.add(bob.email)

    notice_tasks.record_match_over.apply(args=(row.pk,))
    notice_tasks.record_match_over.apply(args=(row.pk,))  # a duplicate task, too

    assert len(_to(alice)) == 1
    assert len(_to(mallory)) == 1
    assert _to(bob) == []
    deliveries = {
        d.recipient_id: d.status
        for d in models.EmailDelivery.objects.filter(table_id=row.pk, kind="match_over")
    }
    assert deliveries == {alice.pk: "sent", bob.pk: "failed", mallory.pk: "sent"}


@pytest.mark.django_db
def test_finding_5_the_turn_and_reminder_mails_go_once_per_turn(alice, bob, refusing_mail):
    row = fresh(human_table(alice, bob).pk)
    mail.outbox.clear()
    to_move = Seat.objects.get(table_id=row.pk, index=row.turn_seat).user
    due = timezone.now() + timedelta(seconds=960)  # the turn e-mail's delay has passed
    for _ in range(3):  # a retried or duplicated task
        notice_tasks.record_turn.apply(args=(row.pk, row.version))
        notice_services.record_reminder(table_id=row.pk, version=row.version)
        email.deliver(to_move.pk, due)
    assert len(mail.outbox) == 2, [m.subject for m in mail.outbox]
    assert all(message.to == [to_move.email] for message in mail.outbox)
    kinds = set(models.EmailDelivery.objects.filter(table_id=row.pk).values_list("kind", "status"))
    assert kinds == {("turn", "sent"), ("reminder", "sent")}

    # A refused address is recorded as failed, and is not retried.
    other = bob if to_move == alice else alice
    refusing_mail.add(other.email)
    state = table(token_client(to_move), row.pk)
    response = play_one(token_client(to_move), state, random.Random(3))
    assert response.status_code == 200
    moved = fresh(row.pk)
    assert moved.turn_seat is not None
    notice_tasks.record_turn.apply(args=(row.pk, moved.version))
    due = timezone.now() + timedelta(seconds=960)
    assert email.deliver(other.pk, due) == 0
    notice_tasks.record_turn.apply(args=(row.pk, moved.version))
    assert email.deliver(other.pk, due) == 0
    failed = models.EmailDelivery.objects.get(table_id=row.pk, kind="turn", key=str(moved.version))
    assert (failed.recipient_id, failed.status) == (other.pk, "failed")
    assert _to(other) == []
