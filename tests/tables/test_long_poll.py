"""The long poll (``GET /api/v1/tables/{id}/?since_version=N&wait=S``, tables.api.waits).

The waiting tests run the async view as an ASGI server does (Django's ``AsyncClient``:
an ``ASGIRequest`` on an event loop) against the real Redis: alice waits while bob moves
through the API, and the move's publish (``outbox.publish_version``, on commit) wakes
her. They need committed rows (``transactional_db``): the publish runs on commit.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import AsyncClient, override_settings
from rest_framework.authtoken.models import Token

from dominoes import match_from_dict
from tables.api.common import etag_of
from tables.models import Table
from tables.services import outbox
from tests.support.api import play_one, seated_clients, table

#: Long enough that a wake is never mistaken for the timeout.
WAIT = 10


class _AsyncApi:
    """An ``AsyncClient`` sending ``user``'s token (made outside the event loop: it reads
    the database)."""

    def __init__(self, user) -> None:
        token, _ = Token.objects.get_or_create(user=user)
        self.client = AsyncClient()
        self.headers = {"Authorization": f"Token {token.key}"}

    def get(self, path: str):
        return self.client.get(path, headers=self.headers)

    def timed_get(self, path: str):
        """``(answer, seconds it took)`` of one GET, run to its end from sync code."""

        async def timed():
            started = time.monotonic()
            answer = await self.get(path)
            return answer, time.monotonic() - started

        return async_to_sync(timed)()


def _wait_path(table_id: int, since: int, seconds: int = WAIT) -> str:
    return f"/api/v1/tables/{table_id}/?since_version={since}&wait={seconds}"


def _hidden_from_alice(table_id: int) -> set[str]:
    """bob's tiles and the undrawn stock, as JSON strings both ways round."""
    hand = match_from_dict(Table.objects.get(pk=table_id).state).hand
    tiles = [*hand.holdings[1], *hand.stock[hand.drawn :]]
    return {f'"{t.high}-{t.low}"' for t in tiles} | {f'"{t.low}-{t.high}"' for t in tiles}


def _bob_moves_when_it_is_his_turn(clients, table_id: int) -> None:
    """alice moves first if it is her turn, so that bob's move is the one she waits for."""
    rng = random.Random(19)
    if table(clients[0], table_id)["turn_seat"] == 0:
        assert play_one(clients[0], table(clients[0], table_id), rng).status_code == 200


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_wait_answers_when_another_player_moves(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    _bob_moves_when_it_is_his_turn(clients, table_id)
    since = table(clients[0], table_id)["version"]
    waiting = _AsyncApi(alice)

    async def scene():
        asked = asyncio.get_running_loop().time()
        wait = asyncio.ensure_future(waiting.get(_wait_path(table_id, since)))
        await asyncio.sleep(0.5)
        assert not wait.done()  # nothing moved: alice is still waiting
        state = await sync_to_async(table)(clients[1], table_id)
        moved = await sync_to_async(play_one)(clients[1], state, random.Random(7))
        assert moved.status_code == 200
        answer = await wait
        return answer, asyncio.get_running_loop().time() - asked

    answer, took = async_to_sync(scene)()
    assert answer.status_code == 200
    assert took < WAIT / 2  # woken by the move, not the timeout
    seen = answer.json()
    assert seen["version"] > since and seen["your_seat"] == 0
    assert answer["ETag"] == etag_of(table_id, seen["version"], 0)
    # The same answer as the plain GET (but for what alice saw since: she just saw it).
    plain = table(clients[0], table_id)
    assert {**seen, "since_your_last_visit": None} == {**plain, "since_your_last_visit": None}
    text = answer.content.decode()
    for secret in _hidden_from_alice(table_id):
        assert secret not in text, f"alice's long poll shows {secret}"


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_the_wait_times_out_with_304_and_a_move_elsewhere_does_not_wake_it(
    api_client_for, alice, bob, carol
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    other_id, other_clients = seated_clients(api_client_for, [carol, bob])
    since = table(clients[0], table_id)["version"]
    waiting = _AsyncApi(alice)

    async def scene():
        started = time.monotonic()
        wait = asyncio.ensure_future(waiting.get(_wait_path(table_id, since, 2)))
        await asyncio.sleep(0.3)
        state = await sync_to_async(table)(other_clients[0], other_id)
        mover = other_clients[state["turn_seat"]]
        state = await sync_to_async(table)(mover, other_id)
        assert (await sync_to_async(play_one)(mover, state, random.Random(3))).status_code == 200
        answer = await wait
        return answer, time.monotonic() - started

    answer, took = async_to_sync(scene)()
    assert answer.status_code == 304
    assert answer["ETag"] == etag_of(table_id, since, 0)
    assert 2 <= took < 4


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_wait_behind_the_table_answers_at_once(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    current = table(clients[0], table_id)["version"]

    alice_api = _AsyncApi(alice)

    answer, took = alice_api.timed_get(_wait_path(table_id, current - 1))
    assert answer.status_code == 200 and answer.json()["version"] == current
    assert took < 2


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_mallory_waits_for_nothing_she_gets_404(api_client_for, alice, bob, mallory):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    since = table(clients[0], table_id)["version"]

    mallory_api = _AsyncApi(mallory)

    answer, took = mallory_api.timed_get(_wait_path(table_id, since))
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert took < 2
    anonymous = async_to_sync(AsyncClient().get)(_wait_path(table_id, since))
    assert anonymous.status_code == 401


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_redis_down_the_wait_answers_at_once(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    since = table(clients[0], table_id)["version"]

    alice_api = _AsyncApi(alice)

    with override_settings(REDIS_URL="redis://127.0.0.1:1/6"):  # nothing listens there
        answer, took = alice_api.timed_get(_wait_path(table_id, since))
    assert answer.status_code == 304  # the current polling's answer: the client polls on
    assert took < 2.5


@pytest.mark.django_db
def test_a_wsgi_server_answers_a_wait_at_once(api_client_for, alice, bob):
    """runserver and gunicorn's sync workers cannot wait without holding a worker."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    since = table(clients[0], table_id)["version"]
    started = time.monotonic()
    answer = clients[0].get(_wait_path(table_id, since))
    assert answer.status_code == 304 and time.monotonic() - started < 2
    moved = clients[0].get(_wait_path(table_id, since - 1))
    assert moved.status_code == 200 and moved.json()["version"] == since


@pytest.mark.django_db
def test_a_wait_above_the_cap_is_refused_and_at_the_cap_is_not(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    since = table(clients[0], table_id)["version"]
    for seconds in (31, 100000, 10**30):
        refused = clients[0].get(_wait_path(table_id, since - 1, seconds))
        assert refused.status_code == 400 and refused.json()["code"] == "invalid_wait"
        assert "30" in refused.json()["detail"]
    assert clients[0].get(_wait_path(table_id, since - 1, 30)).status_code == 200


@pytest.mark.django_db
def test_a_wait_without_since_version_says_it_needs_one(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    refused = clients[0].get(f"/api/v1/tables/{table_id}/?wait=5")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_since_version"
    assert "wait" in refused.json()["detail"]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_move_publishes_the_table_version_once_it_commits(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(settings.TABLE_VERSIONS_CHANNEL)
    try:
        listener.get_message(timeout=1)  # the subscription's confirmation
        state = table(clients[0], table_id)
        mover = clients[state["turn_seat"]]
        answer = play_one(mover, table(mover, table_id), random.Random(5))
        assert answer.status_code == 200
        message = listener.get_message(timeout=2)
    finally:
        listener.close()
    assert message is not None
    assert message["data"].decode() == f"{table_id}:{answer.json()['version']}"


@pytest.mark.django_db
def test_the_publish_waits_for_the_commit(monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(outbox, "_publish", lambda *args: sent.append(args))
    with override_settings(REDIS_URL="redis://127.0.0.1:6379/6"):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            outbox.publish_version(7, 3)
            assert sent == []  # a rollback here would publish nothing
    assert len(callbacks) == 1
    callbacks[0]()
    assert sent == [(7, 3)]


@pytest.mark.django_db
def test_without_redis_nothing_is_published(django_capture_on_commit_callbacks):
    with override_settings(REDIS_URL=""):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            outbox.publish_version(7, 3)
    assert callbacks == []


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_version_above_the_tables_is_refused_at_once_not_waited_out(api_client_for, alice, bob):
    """A client holding a version the table never had gets 400 with the real one, at once:
    waiting it out would end in a 304 that leaves the client wrong for good."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    version = table(clients[0], table_id)["version"]
    waiting = _AsyncApi(alice)

    for since in (version + 5, "9" * 5000):  # the second, too long for int(), all the same
        answer, took = waiting.timed_get(_wait_path(table_id, since))
        assert answer.status_code == 400 and took < WAIT / 2
        body = answer.json()
        assert (body["code"], body["version"]) == ("invalid_since_version", version)


@pytest.mark.django_db
def test_a_stranger_gets_not_found_before_any_check_of_the_wait(
    api_client_for, alice, bob, mallory
):
    """Mallory's malformed wait on alice's table is 404, as on a table that does not exist:
    which check failed must not depend on whether the table is hers to read."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    since = table(clients[0], table_id)["version"]
    stranger = api_client_for(mallory)
    for path in (_wait_path(table_id, since, 99), f"/api/v1/tables/{table_id}/?wait=5"):
        for target in (path, path.replace(f"/{table_id}/", "/999999/")):
            refused = stranger.get(target)
            assert refused.status_code == 404, (target, refused.content)
            assert refused.json()["code"] == "not_found"
    assert clients[0].get(_wait_path(table_id, since, 99)).json()["code"] == "invalid_wait"


def _hidden_from(table_id: int, seat: int) -> set[str]:
    """Every other seat's tiles and the undrawn stock, as JSON strings both ways round."""
    hand = match_from_dict(Table.objects.get(pk=table_id).state).hand
    tiles = [tile for index, held in enumerate(hand.holdings) if index != seat for tile in held]
    tiles += hand.stock[hand.drawn :]
    return {f'"{t.high}-{t.low}"' for t in tiles} | {f'"{t.low}-{t.high}"' for t in tiles}


def _counted(calls: dict, name: str, real):
    """``real``, counting its calls in ``calls[name]``."""

    def call(*args):
        calls[name] += 1
        return real(*args)

    return call


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_woken_waiters_share_one_read_and_get_the_document_the_get_gives(
    monkeypatch, api_client_for, alice, bob, carol
):
    """Four waits (alice twice, carol twice) on one table, woken by bob's move: the table
    is read once for all of them and each reader's document built once; every answer is
    byte for byte what a GET gives that reader at that moment (ETag and caching headers
    too), with no other seat's tile; their reads are recorded together, after."""
    from tables.api import waits

    table_id, clients = seated_clients(api_client_for, [alice, bob, carol])
    rng = random.Random(5)
    while (state := table(clients[0], table_id))["turn_seat"] != 1:
        mover = clients[state["turn_seat"]]
        assert play_one(mover, table(mover, table_id), rng).status_code == 200
    since = table(clients[0], table_id)["version"]
    table(clients[2], table_id)  # carol holds it too
    calls = {"read": 0, "documents": 0}
    recorded = []
    monkeypatch.setattr(waits, "_shared_read", _counted(calls, "read", waits._shared_read))
    monkeypatch.setattr(waits, "_rendered", _counted(calls, "documents", waits._rendered))
    monkeypatch.setattr(waits, "_record", recorded.extend)  # compared before it is saved
    monkeypatch.setattr(waits, "RECORD_AFTER_SECONDS", 0.0)
    readers = {0: _AsyncApi(alice), 2: _AsyncApi(carol)}

    async def scene():
        waiting = [
            (seat, asyncio.ensure_future(readers[seat].get(_wait_path(table_id, since))))
            for seat in (0, 0, 2, 2)
        ]
        await asyncio.sleep(0.5)
        assert not any(wait.done() for _seat, wait in waiting)
        state = await sync_to_async(table)(clients[1], table_id)
        assert (await sync_to_async(play_one)(clients[1], state, rng)).status_code == 200
        answers = [(seat, await wait) for seat, wait in waiting]
        await asyncio.sleep(0.1)  # the reads' record, after the answers
        return answers

    answers = async_to_sync(scene)()
    assert calls == {"read": 1, "documents": 2}
    assert sorted((read.user_id, read.version, read.seen) for read in recorded) == sorted(
        (user.pk, since + 1, False) for user in (alice, alice, carol, carol)
    )
    # one GET each (a GET records its own read once it has answered)
    plains = {seat: clients[seat].get(f"/api/v1/tables/{table_id}/") for seat in (0, 2)}
    for seat, answer in answers:
        assert answer.status_code == 200
        plain = plains[seat]
        assert answer.content == plain.content
        assert answer.json()["since_your_last_visit"]["moves"]  # bob's move, unseen
        for header in ("Content-Type", "ETag", "Cache-Control", "Allow"):
            assert answer[header] == plain[header], header
        text = answer.content.decode()
        for secret in _hidden_from(table_id, seat):
            assert secret not in text, f"seat {seat}'s long poll shows {secret}"
