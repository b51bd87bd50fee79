"""Regression tests for issue 13's service findings (4, 5, 7, 8, 9, 10, 11): each is named
for its finding and failed on the commit before its fix.

- 4: a cache or broker outage never refuses a move: the rate limit fails open (logged),
  a side effect that cannot be queued after the commit is logged, and the bot turn it
  carried is sent again later.
- 5: one e-mail per recipient, recorded (``EmailDelivery``); a refused address is marked
  failed and does not make the others receive it again.
- 7: renewing an invite while a join of the old link is under way: the old link never
  takes the seat.
- 8: a stuck bot turn is sent again at most once per ``BOT_STUCK_SECONDS``, however many
  reads.
- 9: a task that meets a dropped database connection is retried.
- 10: a dropped database or cache connection is ``503 unavailable`` with ``Retry-After``.
- 11: ``turn_expired`` says who ran out of time and that the table is over, from the
  reader's side.
"""

from __future__ import annotations

import logging
import random
import smtplib
import threading
from datetime import timedelta

import pytest
import redis
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.throttling import ScopedWriteRateThrottle
from tables import models, notifications, selectors, services, tasks
from tables.errors import TableError
from tables.models import Move, Seat, Table
from tables.services import core
from tests.support.api import play_one, table
from tests.support.database import fresh, human_table

# --- helpers ------------------------------------------------------------------------------


def _client(user) -> APIClient:
    """An API client for ``user`` that answers 500s instead of raising them."""
    client = APIClient(raise_request_exception=False)
    token, _created = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _bot_table_on_human_turn(alice) -> Table:
    """A started two-seat table, alice against Garabato, with alice to move."""
    created = services.table_create(creator=alice, seats=2, target=100, others=["garabato"])
    row = fresh(created.pk)
    if row.turn_seat == 1:
        assert services.bot_play(table_id=row.pk, version=row.version)
        row = fresh(created.pk)
    assert row.turn_seat == 0
    return row


def _bot_turn_stuck(alice) -> Table:
    """A table whose bot turn's task was lost ``BOT_STUCK_SECONDS`` + a minute ago."""
    from tests.support.database import human_moves_until_bot_turn

    created = services.table_create(creator=alice, seats=2, target=100, others=["garabato"])
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(8))
    long_ago = timezone.now() - timedelta(seconds=120 + 60)
    Table.objects.filter(pk=row.pk).update(turn_started_at=long_ago)
    return fresh(row.pk)


@pytest.fixture
def not_eager():
    """Tasks go to the broker instead of running inline, for this test."""
    from config.celery_app import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = before


def _recorder(sent: list):
    """An ``apply_async`` that only records its arguments: a broker with no worker."""

    def apply_async(args, kwargs=None, **options):
        sent.append(tuple(args))

    return apply_async


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
    row = _bot_table_on_human_turn(alice)
    monkeypatch.setattr(ScopedWriteRateThrottle, "cache", _BrokenCache())
    client = _client(alice)
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
    row = _bot_table_on_human_turn(alice)
    # The broker is down: publishing raises (the Redis result store's own error, after its
    # retries, is a RuntimeError; kombu's is OperationalError).

    def broker_down(args, **options):
        raise RuntimeError("Retry limit exceeded while trying to reconnect to the Celery result")

    monkeypatch.setattr(tasks.bot_play, "apply_async", broker_down)
    client = _client(alice)
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
    assert any("bot_play" in r.getMessage() for r in caplog.records if r.levelname == "ERROR")

    # The broker is back: once the turn has waited BOT_STUCK_SECONDS, the sweep sends it.
    sent = []
    monkeypatch.setattr(tasks.bot_play, "apply_async", _recorder(sent))
    Table.objects.filter(pk=row.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
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

    tasks.send_match_over_emails.apply(args=(row.pk,))
    tasks.send_match_over_emails.apply(args=(row.pk,))  # a duplicate task, too

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
    for _ in range(3):  # a retried or duplicated task
        tasks.send_turn_email.apply(args=(row.pk, row.version))
        notifications.send_reminder(row.pk, row.version)
    to_move = Seat.objects.get(table_id=row.pk, index=row.turn_seat).user
    assert len(mail.outbox) == 2, [m.subject for m in mail.outbox]
    assert all(message.to == [to_move.email] for message in mail.outbox)
    kinds = set(models.EmailDelivery.objects.filter(table_id=row.pk).values_list("kind", "status"))
    assert kinds == {("turn", "sent"), ("reminder", "sent")}

    # A refused address is recorded as failed, and is not retried.
    other = bob if to_move == alice else alice
    refusing_mail.add(other.email)
    state = table(_client_token(to_move), row.pk)
    response = play_one(_client_token(to_move), state, random.Random(3))
    assert response.status_code == 200
    moved = fresh(row.pk)
    assert moved.turn_seat is not None
    result = tasks.send_turn_email.apply(args=(row.pk, moved.version))
    assert result.get() is False
    tasks.send_turn_email.apply(args=(row.pk, moved.version))
    failed = models.EmailDelivery.objects.get(table_id=row.pk, kind="turn", key=str(moved.version))
    assert (failed.recipient_id, failed.status) == (other.pk, "failed")
    assert _to(other) == []


def _client_token(user) -> APIClient:
    client = APIClient()
    token, _created = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


# --- finding 7: renew against a join under way ---------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_finding_7_a_renewed_invite_never_takes_the_seat_of_a_join_under_way(
    alice, bob, monkeypatch
):
    created = services.table_create(creator=alice, seats=2, target=100, others=["friend"])
    old_token = Seat.objects.get(table=created, index=1).invite_token
    looked_up, renewed = threading.Event(), threading.Event()
    real_lock = core.lock

    def lock_after_the_renewal(table_id, **options):
        if threading.current_thread().name == "joiner":  # the join has read the token
            looked_up.set()
            assert renewed.wait(timeout=20)
        return real_lock(table_id, **options)

    monkeypatch.setattr(core, "lock", lock_after_the_renewal)
    outcome: dict[str, object] = {}

    def join() -> None:
        try:
            services.seat_join(token=old_token, user=bob)
            outcome["join"] = "joined"
        except TableError as error:
            outcome["join"] = error.code
        finally:
            connection.close()

    def renew() -> None:
        try:
            assert looked_up.wait(timeout=20)
            services.invite_renew(table_id=created.pk, user=alice, seat_index=1)
            outcome["renew"] = "renewed"
        finally:
            renewed.set()
            connection.close()

    threads = [threading.Thread(target=join, name="joiner"), threading.Thread(target=renew)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert outcome == {"renew": "renewed", "join": "invite_not_found"}
    seat = Seat.objects.get(table=created, index=1)
    assert seat.user_id is None and seat.invite_token not in (None, old_token)
    assert fresh(created.pk).status == Table.Status.WAITING


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_finding_7_racing_renewals_and_joins_never_both_succeed(alice, bob):
    for _ in range(10):
        created = services.table_create(creator=alice, seats=2, target=100, others=["friend"])
        token = Seat.objects.get(table=created, index=1).invite_token
        barrier = threading.Barrier(2)
        outcome: dict[str, str] = {}

        def join(token=token, outcome=outcome, barrier=barrier) -> None:
            barrier.wait(timeout=20)
            try:
                services.seat_join(token=token, user=bob)
                outcome["join"] = "ok"
            except TableError as error:
                outcome["join"] = error.code
            finally:
                connection.close()

        def renew(table_id=created.pk, outcome=outcome, barrier=barrier) -> None:
            barrier.wait(timeout=20)
            try:
                services.invite_renew(table_id=table_id, user=alice, seat_index=1)
                outcome["renew"] = "ok"
            except TableError as error:
                outcome["renew"] = error.code
            finally:
                connection.close()

        threads = [threading.Thread(target=join), threading.Thread(target=renew)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(outcome.values()) in (
            ["invite_not_found", "ok"],
            ["not_found", "ok"],
            ["ok", "table_not_open"],
        )
        seat = Seat.objects.get(table=created, index=1)
        assert (seat.user_id == bob.pk) == (outcome["join"] == "ok")


# --- finding 8: a stuck bot turn re-sent at most once per BOT_STUCK_SECONDS ---------------


@pytest.mark.django_db
def test_finding_8_three_hundred_reads_with_the_worker_down_queue_one_bot_task(
    alice, monkeypatch, settings
):
    row = _bot_turn_stuck(alice)
    sent = []
    monkeypatch.setattr(tasks.bot_play, "apply_async", _recorder(sent))
    client = _client(alice)
    for _ in range(300):
        assert client.get(f"/api/v1/tables/{row.pk}/").status_code == 200
    assert tasks.sweep_stuck_bots() == 0  # the sweep too: already sent within the window
    assert sent == [(row.pk, row.version)]
    assert fresh(row.pk).bot_requeued_at is not None

    # BOT_STUCK_SECONDS later, still stuck: one more, whoever gets there first.
    later = timezone.now() - timedelta(seconds=settings.BOT_STUCK_SECONDS + 1)
    Table.objects.filter(pk=row.pk).update(bot_requeued_at=later)
    assert tasks.sweep_stuck_bots() == 1
    for _ in range(10):
        client.get(f"/api/v1/tables/{row.pk}/")
    assert sent == [(row.pk, row.version)] * 2


# --- finding 9: tasks retry on a dropped database connection --------------------------------


@pytest.mark.django_db
def test_finding_9_the_turn_mail_is_sent_after_a_dropped_database_connection(
    alice, bob, monkeypatch
):
    row = fresh(human_table(alice, bob).pk)
    mail.outbox.clear()
    real = notifications._turn_seat
    calls = []

    def drops_once(table):
        calls.append(table.pk)
        if len(calls) == 1:
            raise OperationalError("terminating connection due to administrator command")
        return real(table)

    monkeypatch.setattr(notifications, "_turn_seat", drops_once)
    # throw=False: inline, a retry is run at once instead of raised (Celery's apply).
    result = tasks.send_turn_email.apply(args=(row.pk, row.version), throw=False)
    assert result.get() is True
    assert len(calls) == 2
    assert len(mail.outbox) == 1


def test_finding_9_every_task_retries_transient_database_and_broker_errors():
    from django.db import InterfaceError
    from kombu.exceptions import OperationalError as BrokerError

    for name in dir(tasks):
        task = getattr(tasks, name)
        if not hasattr(task, "apply_async") or not task.name.startswith("tables.tasks."):
            continue
        retried = tuple(getattr(task, "autoretry_for", ()))
        for error in (OperationalError, InterfaceError, BrokerError):
            assert issubclass(error, retried), (task.name, error)
        assert task.retry_backoff, task.name
        assert 0 < task.max_retries <= 10, task.name


# --- finding 10: 503 unavailable -----------------------------------------------------------


def _drop_connection(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


def _drop_cache(*args, **kwargs):
    raise redis.exceptions.ConnectionError("Connection closed by server.")


@pytest.mark.django_db
@pytest.mark.parametrize("failure", [_drop_connection, _drop_cache], ids=["database", "cache"])
def test_finding_10_a_dropped_connection_is_a_503_unavailable_with_retry_after(
    alice, monkeypatch, failure
):
    row = _bot_table_on_human_turn(alice)
    monkeypatch.setattr(selectors, "table_for_user", failure)
    response = _client(alice).get(f"/api/v1/tables/{row.pk}/")
    assert response.status_code == 503, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "unavailable" and body["detail"]
    assert int(response["Retry-After"]) > 0

    # A page: a plain 503 page, with Retry-After too.
    monkeypatch.setattr(selectors, "tables_for_user", failure)
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    page = browser.get("/")
    assert page.status_code == 503
    assert page["Content-Type"].startswith("text/html")
    assert int(page["Retry-After"]) > 0
    assert "server_error" not in page.content.decode()


# --- finding 11: turn_expired from the reader's side ---------------------------------------


@pytest.mark.django_db
def test_finding_11_turn_expired_tells_the_winner_they_won_and_the_absent_they_lost(alice, carol):
    row = fresh(human_table(alice, carol).pk)
    users = {0: alice, 1: carol}
    absent, winner = users[row.turn_seat], users[1 - row.turn_seat]
    view = {seat: table(_client_token(user), row.pk) for seat, user in users.items()}
    Table.objects.filter(pk=row.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    late = _client_token(winner).post(
        f"/api/v1/tables/{row.pk}/moves/",
        {"tile": "6-6", "version": view[1 - row.turn_seat]["version"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=winner.language,
    )
    assert late.status_code == 409
    body = late.json()
    assert body["code"] == "turn_expired"
    assert absent.username in body["detail"]
    if winner.language == "en":
        assert "you win" in body["detail"] and "table is over" in body["detail"]
    else:
        assert "ganas" in body["detail"] and "terminado" in body["detail"]
    assert "perdió por ausencia" not in body["detail"]

    move = view[row.turn_seat]["game"]["legal_moves"][0]
    late = _client_token(absent).post(
        f"/api/v1/tables/{row.pk}/moves/",
        {"tile": move["tile"], "end": move["end"], "version": view[row.turn_seat]["version"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=absent.language,
    )
    body = late.json()
    assert (late.status_code, body["code"]) == (409, "turn_expired")
    if absent.language == "en":
        assert "Your" in body["detail"] and "you lost" in body["detail"]
    else:
        assert "tu plazo" in body["detail"] and "perdiste" in body["detail"]
    assert winner.username not in body["detail"]
