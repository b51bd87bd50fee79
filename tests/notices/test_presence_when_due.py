"""Presence is decided when an e-mail or a push is due, not when its notice is written: a
player who looked at the table seconds before their turn began (or before the match
ended), then closed the page, still gets the turn's e-mail after the delay and its push
once they are away; one who saw the table after it happened gets neither. Whatever the
beat runs twice sends nothing twice.

The clock is stopped at T0 and moved by hand (time-machine); mail goes to the locmem
outbox, pushes to a push service on loopback (tests/notices/test_push.py)."""

from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import timedelta

import pytest

from notices import services
from notices import tasks as notice_tasks
from notices.models import Notification
from tests.notices.support import mails_to
from tests.notices.test_push import Device
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

AWAY = T0 + timedelta(minutes=5)  # the presence of the seating at T0 has run out (120 s)
LOOK = AWAY + timedelta(minutes=1)  # alice looks at the table...
TURN = LOOK + timedelta(seconds=5)  # ...and 5 s later her turn begins (bob moved)
DELAY = timedelta(seconds=900)  # TURN_EMAIL_DELAY_SECONDS


class Browser:
    """Alice's browser, subscribed to Web Push; what it was sent, decrypted."""

    def __init__(self, user, service) -> None:
        self.device = Device(f"{service.url}/push/{user.username}")
        self.service = service
        keys = self.device.subscription["keys"]
        services.push_subscribe(user=user, endpoint=self.device.subscription["endpoint"], **keys)

    def kinds(self) -> list[str]:
        return [self.device.decrypt(body)["kind"] for _headers, body in self.service.received]


def _beat(clock, run_tasks, start, until, step=timedelta(seconds=30)) -> None:
    """Celery beat from ``start`` to ``until``: every ``step`` the e-mails and the pushes
    due, each run twice (a duplicated beat sends nothing twice)."""
    now = start
    while now <= until:
        clock.move_to(now)
        with run_tasks():
            for _twice in range(2):
                notice_tasks.deliver_emails()
                notice_tasks.deliver_pushes()
        now += step


@pytest.fixture
def seated(clock, api_client_for, run_tasks, alice, bob):
    """alice (seat 0) and bob (seat 1) at a table, at AWAY with bob to move (alice moved
    first when she led). Returns ``(table_id, clients)``."""
    created = create_table(api_client_for(alice), 2, ["friend"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    table_id, clients = created["id"], {0: api_client_for(alice), 1: api_client_for(bob)}
    clock.move_to(AWAY)
    rng = random.Random(4)
    while fresh(table_id).turn_seat == 0:
        with run_tasks():
            assert play_one(clients[0], table(clients[0], table_id), rng).status_code == 200
    return table_id, clients


def _bob_moves_until_alices_turn(clients, table_id, run_in) -> None:
    """bob plays (a draw keeps his turn) until alice is to move, each move's commit
    callbacks (the notice tasks) in ``run_in()``."""
    rng = random.Random(11)
    while fresh(table_id).turn_seat == 1:
        state = table(clients[1], table_id)
        with run_in():
            assert play_one(clients[1], state, rng).status_code == 200


def _turn_mails(user) -> list:
    return [m for m in mails_to(user) if "Te toca" in m.subject or "Your turn" in m.subject]


def test_a_turn_beginning_5_s_after_a_look_is_mailed_after_the_delay_and_pushed_once(
    clock, run_tasks, seated, alice, push_service, vapid
):
    table_id, clients = seated
    browser = Browser(alice, push_service)
    clock.move_to(LOOK)
    table(clients[0], table_id)  # alice looks, then closes the page
    clock.move_to(TURN)
    _bob_moves_until_alices_turn(clients, table_id, run_tasks)
    notice = Notification.objects.get(recipient=alice, table=table_id, kind="your_turn")
    assert notice.email == "pending"  # not skipped: she was there 5 s ago, not since

    _beat(clock, run_tasks, TURN, TURN + DELAY - timedelta(minutes=1))
    assert _turn_mails(alice) == []  # the e-mail waits its 15 minutes
    assert browser.kinds() == ["your_turn"]  # the push went once she counted as away

    _beat(clock, run_tasks, TURN + DELAY - timedelta(seconds=30), TURN + 2 * DELAY)
    assert len(_turn_mails(alice)) == 1
    assert browser.kinds() == ["your_turn"]
    notice.refresh_from_db()
    assert (notice.email, notice.push) == ("sent", "sent")


def test_a_turn_seen_after_it_began_is_neither_mailed_nor_pushed(
    clock, run_tasks, seated, alice, push_service, vapid, django_capture_on_commit_callbacks
):
    table_id, clients = seated
    browser = Browser(alice, push_service)
    clock.move_to(LOOK)
    table(clients[0], table_id)
    clock.move_to(TURN)
    held = []

    @contextmanager
    def held_back():  # the commit's tasks wait (a busy worker)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            yield
        held.extend(callbacks)

    _bob_moves_until_alices_turn(clients, table_id, held_back)
    clock.move_to(TURN + timedelta(seconds=2))
    table(clients[0], table_id)  # she sees her turn before its notice is even written
    with run_tasks():
        for callback in held:  # the notice tasks run now
            callback()
    notice = Notification.objects.get(recipient=alice, table=table_id, kind="your_turn")
    assert notice.read_at is None  # written after her look: nothing marked it read

    _beat(clock, run_tasks, TURN + timedelta(seconds=2), TURN + 2 * DELAY)
    assert _turn_mails(alice) == []
    assert browser.kinds() == []
    notice.refresh_from_db()
    assert (notice.email, notice.push) == ("skipped", "skipped")


def test_a_match_end_moments_after_a_look_is_mailed_to_who_did_not_see_it(
    clock, api_client_for, run_tasks, seated, alice, bob, push_service, vapid
):
    table_id, clients = seated
    browser = Browser(alice, push_service)
    clock.move_to(LOOK)
    table(clients[0], table_id)  # alice looks moments before the end, never after
    clock.move_to(TURN)
    with run_tasks():
        assert clients[1].post(f"/api/v1/tables/{table_id}/abandon/").status_code == 200
    _beat(clock, run_tasks, TURN, TURN + DELAY)
    over = [m for m in mails_to(alice) if str(table_id) in m.subject and "partida" in m.subject]
    assert len(over) == 1, [m.subject for m in mails_to(alice)]
    assert browser.kinds() == ["match_over"]
    # bob ended it from the table and saw the end: no e-mail to him
    assert [m for m in mails_to(bob) if "partida" in m.subject] == []
    notices = Notification.objects.filter(table=table_id, kind="match_over")
    assert sorted(notices.values_list("recipient__username", "email")) == [
        ("alice", "sent"),
        ("bob", "skipped"),
    ]
