"""Each decision on a due e-mail is counted by outcome (``domino_notices_total``): the
"your turn" e-mail that goes once the player is away is ``sent``, one whose turn the
player saw within the delay is ``skipped``; the beat's run is timed."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core import mail
from prometheus_client import REGISTRY

from notices import tasks as notice_tasks
from tests.notices.test_emails import AWAY, DELAY, _move, _two_people
from tests.support.api import table
from tests.support.clock import MINUTE
from tests.support.database import fresh

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, float]:
    outcomes = ("sent", "skipped")
    counts = {
        outcome: REGISTRY.get_sample_value(
            "domino_notices_total", {"channel": "email", "outcome": outcome}
        )
        or 0.0
        for outcome in outcomes
    }
    counts["runs"] = (
        REGISTRY.get_sample_value("domino_sweep_seconds_count", {"sweep": "deliver_emails"}) or 0
    )
    return counts


def _moved(before: dict, after: dict) -> dict:
    return {name: after[name] - before[name] for name in before if after[name] != before[name]}


def test_a_turn_email_that_goes_is_counted_sent(clock, api_client_for, run_tasks, alice, bob):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    clock.move_to(AWAY)
    _move(clients, table_id, random.Random(1), run_tasks)
    before = _counts()
    clock.move_to(AWAY + DELAY)
    with run_tasks():
        assert notice_tasks.deliver_emails() == 1
    assert len(mail.outbox) == 1
    # and the first turn's notice, answered by that move, is skipped
    assert _moved(before, _counts()) == {"sent": 1, "skipped": 1, "runs": 1}


def test_a_turn_seen_in_time_is_counted_skipped(clock, api_client_for, run_tasks, alice, bob):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    clock.move_to(AWAY)
    _move(clients, table_id, random.Random(2), run_tasks)
    waiting = fresh(table_id).turn_seat
    clock.move_to(AWAY + timedelta(minutes=10))
    table(clients[waiting], table_id)
    before = _counts()
    clock.move_to(AWAY + DELAY + MINUTE)
    with run_tasks():
        assert notice_tasks.deliver_emails() == 0
    assert _moved(before, _counts()) == {"skipped": 2, "runs": 1}  # both turns' notices
