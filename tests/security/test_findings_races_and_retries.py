"""Regression tests for issue 13's service findings (7, 8, 9, 10, 11): each is named
for its finding and failed on the commit before its fix.

- 7: renewing an invite while a join of the old link is under way: the old link never
  takes the seat.
- 8: a stuck bot turn is sent again at most once per ``BOT_STUCK_SECONDS``, however many
  reads.
- 9: a task that meets a dropped database connection is retried.
- 10: a dropped database or cache connection is ``503 unavailable`` with ``Retry-After``.
- 11: ``turn_expired`` says who ran out of time and that the table is over, from the
  reader's side."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
import redis
from django.core import mail
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone

from notices import email
from notices import services as notice_services
from notices import tasks as notice_tasks
from tables import listing, selectors, services, tasks
from tables.errors import TableError
from tables.models import Seat, Table
from tables.services import transitions
from tests.support.api import table, token_client
from tests.support.broker import recording_apply_async
from tests.support.database import bot_table_on_human_turn, fresh, human_table


def _bot_turn_stuck(alice) -> Table:
    """A table whose bot turn's task was lost ``BOT_STUCK_SECONDS`` + a minute ago."""
    from tests.support.database import human_moves_until_bot_turn

    created = services.table_create(creator=alice, seats=2, target=100, others=["garabato"])
    row = human_moves_until_bot_turn(created.pk, alice, random.Random(8))
    long_ago = timezone.now() - timedelta(seconds=120 + 60)
    Table.objects.filter(pk=row.pk).update(turn_started_at=long_ago)
    return fresh(row.pk)


# --- finding 7: renew against a join under way ---------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_finding_7_a_renewed_invite_never_takes_the_seat_of_a_join_under_way(
    alice, bob, monkeypatch
):
    created = services.table_create(creator=alice, seats=2, target=100, others=["friend"])
    old_token = Seat.objects.get(table=created, index=1).invite_token
    looked_up, renewed = threading.Event(), threading.Event()
    real_lock = transitions.lock

    def lock_after_the_renewal(table_id, **options):
        if threading.current_thread().name == "joiner":  # the join has read the token
            looked_up.set()
            assert renewed.wait(timeout=20)
        return real_lock(table_id, **options)

    monkeypatch.setattr(transitions, "lock", lock_after_the_renewal)
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
    alice, monkeypatch, settings, django_capture_on_commit_callbacks
):
    row = _bot_turn_stuck(alice)
    sent = []
    monkeypatch.setattr(tasks.bot_play, "apply_async", recording_apply_async(sent))
    client = token_client(alice, raise_request_exception=False)
    for _ in range(300):  # a read never re-sends it (reads write nothing): the sweep does
        assert client.get(f"/api/v1/tables/{row.pk}/").status_code == 200
    assert sent == []
    with django_capture_on_commit_callbacks(execute=True):  # the lost turn's event, committed
        assert tasks.sweep_stuck_bots() == 1
        assert tasks.sweep_stuck_bots() == 0  # already sent within the window
    for _ in range(10):
        client.get(f"/api/v1/tables/{row.pk}/")
    assert sent == [(row.pk, row.version)]
    assert fresh(row.pk).bot_requeued_at is not None

    # BOT_STUCK_SECONDS later, still stuck: one more, whoever gets there first.
    later = timezone.now() - timedelta(seconds=settings.BOT_STUCK_SECONDS + 1)
    Table.objects.filter(pk=row.pk).update(bot_requeued_at=later)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep_stuck_bots() == 1
        for _ in range(10):
            client.get(f"/api/v1/tables/{row.pk}/")
    assert sent == [(row.pk, row.version)] * 2


# --- finding 9: tasks retry on a dropped database connection --------------------------------


@pytest.mark.django_db
def test_finding_9_the_turn_notice_is_written_after_a_dropped_database_connection(
    alice, bob, monkeypatch, settings
):
    settings.PRESENCE_SECONDS = 0  # nobody counts as at the table: the turn is mailed
    row = fresh(human_table(alice, bob).pk)
    mail.outbox.clear()
    real = notice_services.seats_of
    calls = []

    def drops_once(table):
        calls.append(table.pk)
        if len(calls) == 1:
            raise OperationalError("terminating connection due to administrator command")
        return real(table)

    monkeypatch.setattr(notice_services, "seats_of", drops_once)
    # throw=False: inline, a retry is run at once instead of raised (Celery's apply).
    result = notice_tasks.record_turn.apply(args=(row.pk, row.version), throw=False)
    assert result.get() is True
    assert len(calls) == 2
    to_move = Seat.objects.get(table_id=row.pk, index=row.turn_seat).user
    assert email.deliver(to_move.pk, timezone.now() + timedelta(seconds=960)) == 1
    assert len(mail.outbox) == 1


def test_finding_9_every_task_retries_transient_database_and_broker_errors():
    from django.db import InterfaceError
    from kombu.exceptions import OperationalError as BrokerError

    every = [(module, name) for module in (tasks, notice_tasks) for name in dir(module)]
    for module, name in every:
        task = getattr(module, name)
        if not hasattr(task, "apply_async") or not task.name.startswith(module.__name__):
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
    row = bot_table_on_human_turn(alice)
    monkeypatch.setattr(selectors, "table_for_user", failure)
    response = token_client(alice, raise_request_exception=False).get(f"/api/v1/tables/{row.pk}/")
    assert response.status_code == 503, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "unavailable" and body["detail"]
    assert int(response["Retry-After"]) > 0

    # A page: a plain 503 page, with Retry-After too.
    monkeypatch.setattr(listing, "page_query", failure)  # "Mis mesas"' read
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
    view = {seat: table(token_client(user), row.pk) for seat, user in users.items()}
    Table.objects.filter(pk=row.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    late = token_client(winner).post(
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
    late = token_client(absent).post(
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
