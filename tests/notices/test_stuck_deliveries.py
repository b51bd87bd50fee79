"""A delivery left ``sending`` (the process died or lost its database between the claim
and the end) is reclaimed by the beat's ``reclaim_deliveries`` once it is older than
``DELIVERY_LEASE_SECONDS``, and finished with the mail sent once: a mail the server took
(``EmailDelivery.sent_at``, written the moment it took it) is marked sent and never sent
again; one it did not take is sent again. Pushes likewise (``push_accepted_at``). And the
inbox keeps one unread "Te toca" per table: those of turns that are over are read.

The clock is stopped at T0 and moved by hand; mail goes to the locmem outbox."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.db import OperationalError

from notices import email, push, services
from notices import tasks as notice_tasks
from notices.models import Notification
from tables.models import EmailDelivery
from tables.services import deliveries
from tests.notices.test_presence_when_due import Browser
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

AWAY = T0 + timedelta(minutes=5)
DUE = AWAY + timedelta(seconds=901)  # the turn's e-mail is due
LEASE = timedelta(seconds=601)  # past DELIVERY_LEASE_SECONDS


def _dropped(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def _turn_waiting(clock, api_client_for, run_tasks, alice, bob):
    """alice and bob at a table, the one to move away since AWAY: their turn's notice,
    its e-mail due at DUE."""
    created = create_table(api_client_for(alice), 2, ["friend"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    clock.move_to(AWAY)
    turn = fresh(created["id"]).turn_seat
    with run_tasks():
        state = table(clients[turn], created["id"])
        assert play_one(clients[turn], state, random.Random(3)).status_code == 200
    waiting = Notification.objects.get(
        table=created["id"], kind="your_turn", read_at=None, email="pending"
    )
    return created["id"], waiting


def _reclaim_twice(clock, run_tasks, when) -> None:
    clock.move_to(when)
    with run_tasks():
        notice_tasks.reclaim_deliveries()
        notice_tasks.reclaim_deliveries()
        notice_tasks.deliver_emails()


def test_a_mail_the_server_took_before_the_crash_is_marked_sent_not_sent_again(
    clock, api_client_for, run_tasks, alice, bob, monkeypatch
):
    table_id, waiting = _turn_waiting(clock, api_client_for, run_tasks, alice, bob)
    clock.move_to(DUE)
    monkeypatch.setattr(deliveries, "delivery_sent", _dropped)  # the database drops here
    with pytest.raises(OperationalError):
        email.deliver(waiting.recipient_id)
    monkeypatch.undo()
    assert len(mail.outbox) == 1
    waiting.refresh_from_db()
    assert waiting.email == "sending"  # left behind, with the server's acceptance written
    delivery = EmailDelivery.objects.get(table_id=table_id, kind="turn")
    assert delivery.status == "sending" and delivery.sent_at is not None

    _reclaim_twice(clock, run_tasks, DUE + timedelta(seconds=30))  # within the lease
    waiting.refresh_from_db()
    assert waiting.email == "sending"

    _reclaim_twice(clock, run_tasks, DUE + LEASE)
    assert len(mail.outbox) == 1
    waiting.refresh_from_db()
    delivery.refresh_from_db()
    assert (waiting.email, delivery.status) == ("sent", "sent")
    assert waiting.channels == ["email"]


def test_a_mail_not_taken_before_the_crash_is_sent_once_when_reclaimed(
    clock, api_client_for, run_tasks, alice, bob, monkeypatch
):
    table_id, waiting = _turn_waiting(clock, api_client_for, run_tasks, alice, bob)
    clock.move_to(DUE)
    # the send fails, and so does every write after it: the claims stay behind
    monkeypatch.setattr(email, "_send", _dropped)
    monkeypatch.setattr(deliveries, "delivery_release", _dropped)
    with pytest.raises(OperationalError):
        email.deliver(waiting.recipient_id)
    monkeypatch.undo()
    assert mail.outbox == []
    with run_tasks():
        notice_tasks.deliver_emails()  # the beat, meanwhile: the claim is under way
    assert mail.outbox == []

    _reclaim_twice(clock, run_tasks, DUE + LEASE)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [waiting.recipient.email]
    waiting.refresh_from_db()
    assert waiting.email == "sent"
    assert EmailDelivery.objects.get(table_id=table_id, kind="turn").status == "sent"


def test_a_push_left_sending_is_pushed_once_when_reclaimed(
    clock, api_client_for, run_tasks, alice, bob, push_service, vapid
):
    _table_id, waiting = _turn_waiting(clock, api_client_for, run_tasks, alice, bob)
    browser = Browser(waiting.recipient, push_service)
    Notification.objects.filter(pk=waiting.pk).update(push="pending")
    with pytest.MonkeyPatch.context() as patch, pytest.raises(OperationalError):
        patch.setattr(push, "_push", _dropped)  # the database drops mid-send
        push.deliver(waiting.pk)
    waiting.refresh_from_db()
    assert waiting.push == "sending" and browser.kinds() == []
    with run_tasks():
        notice_tasks.deliver_pushes()  # the beat, meanwhile: the claim is under way
    assert browser.kinds() == []

    _reclaim_twice(clock, run_tasks, AWAY + LEASE)
    with run_tasks():
        notice_tasks.deliver_pushes()
    assert browser.kinds() == ["your_turn"]
    waiting.refresh_from_db()
    assert waiting.push == "sent"


def test_a_push_a_service_took_before_the_crash_is_not_pushed_again(
    clock, api_client_for, run_tasks, alice, bob, push_service, vapid
):
    _table_id, waiting = _turn_waiting(clock, api_client_for, run_tasks, alice, bob)
    browser = Browser(waiting.recipient, push_service)
    Notification.objects.filter(pk=waiting.pk).update(push="pending")
    with pytest.MonkeyPatch.context() as patch, pytest.raises(OperationalError):
        patch.setattr(push.native, "send", _dropped)  # after the browser took it
        push.deliver(waiting.pk)
    assert browser.kinds() == ["your_turn"]
    _reclaim_twice(clock, run_tasks, AWAY + LEASE)
    with run_tasks():
        notice_tasks.deliver_pushes()
    assert browser.kinds() == ["your_turn"]
    waiting.refresh_from_db()
    assert waiting.push == "sent"


def test_the_inbox_keeps_one_unread_te_toca_per_table(clock, api_client_for, run_tasks, alice, bob):
    table_id, waiting = _turn_waiting(clock, api_client_for, run_tasks, alice, bob)
    row = fresh(table_id)
    # Earlier turns whose e-mail was left ``sending`` by a crash, never read.
    for version in (row.version - 4, row.version - 2):
        Notification.objects.create(
            recipient=waiting.recipient,
            kind="your_turn",
            table_id=table_id,
            key=str(version),
            payload=waiting.payload,
            email="sending",
            created_at=AWAY - timedelta(minutes=1),
        )
    client = api_client_for(waiting.recipient)
    clock.move_to(AWAY + LEASE)
    with run_tasks():
        notice_tasks.reclaim_deliveries()
    unread = client.get("/api/v1/notifications/?unread=1").json()["results"]
    turns = [n for n in unread if n["kind"] == "your_turn"]
    assert [n["id"] for n in turns] == [waiting.pk]
    assert turns[0]["text"].startswith(f"Te toca en la mesa {table_id}")

    # and a new turn makes the earlier one, kept for its e-mail under way, read
    waiting.email = "sending"
    waiting.save(update_fields=["email"])
    services.record_turn(table_id=table_id, version=row.version)  # retried: nothing new
    assert Notification.objects.get(pk=waiting.pk).read_at is None
    Notification.objects.filter(pk=waiting.pk).update(key=str(row.version - 1))
    services.record_turn(table_id=table_id, version=row.version)
    unread_turns = Notification.objects.filter(
        recipient=waiting.recipient, table_id=table_id, kind="your_turn", read_at=None
    )
    assert list(unread_turns.values_list("key", flat=True)) == [str(row.version)]


def test_the_reclaim_is_on_the_beat_schedule(settings):
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "notices.tasks.reclaim_deliveries" in schedule
    assert 0 < settings.DELIVERY_LEASE_SECONDS
