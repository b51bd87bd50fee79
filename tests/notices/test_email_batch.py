"""The e-mail sweep (``notices.tasks.deliver_emails``, Celery beat every minute) reads at
most a batch of due notices a run (``EMAIL_BATCH``), oldest due first: a backlog larger
than the batch goes out over the next runs, each e-mail once. What a player's quiet hours
hold back is due again when they end, so it does not fill every batch in the meantime."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.core import mail

from notices import tasks as notice_tasks
from notices.models import NoticePreferences, Notification
from tests.conftest import _make_user
from tests.support.clock import MINUTE, T0
from tests.support.many_tables import tables

pytestmark = pytest.mark.django_db


def _match_over_due(user, due_at) -> Notification:
    """A finished table of ``user``'s (against Nino) whose e-mail has been due since
    ``due_at``."""
    (table_id,) = tables(1, status="finished", players=[user, "nino"], start=due_at)
    return Notification.objects.create(
        recipient=user,
        kind=Notification.Kind.MATCH_OVER,
        table_id=table_id,
        payload={"table": table_id, "scores": [100, 20]},
        created_at=due_at,
        channels=["email"],
        email=Notification.Email.PENDING,
        email_due_at=due_at,
    )


def test_a_run_sends_a_batch_oldest_first_and_the_next_the_rest_each_once(
    clock, run_tasks, django_user_model
):
    people = [_make_user(django_user_model, f"player{n}") for n in range(5)]
    # player4's is due longest, player0's last
    for n, person in enumerate(people):
        _match_over_due(person, T0 - timedelta(minutes=10 * n))
    clock.move_to(T0 + MINUTE)
    with run_tasks():
        assert notice_tasks.deliver_emails(batch=3) == 3
        first = {message.to[0] for message in mail.outbox}
        assert first == {f"{person.username}@example.com" for person in people[2:]}
        assert notice_tasks.deliver_emails(batch=3) == 2
        assert notice_tasks.deliver_emails(batch=3) == 0
    sent = sorted(message.to[0] for message in mail.outbox)
    assert sent == sorted(f"{person.username}@example.com" for person in people)
    assert set(Notification.objects.values_list("email", flat=True)) == {"sent"}


def test_mail_held_by_quiet_hours_waits_for_their_end_and_fills_no_batch(
    clock, run_tasks, django_user_model
):
    sleeper, awake = (_make_user(django_user_model, name) for name in ("sleeper", "awake"))
    NoticePreferences.objects.update_or_create(
        user=sleeper, defaults={"quiet_start": time(0, 0), "quiet_end": time(23, 0)}
    )
    held = [_match_over_due(sleeper, T0 - timedelta(hours=n + 1)) for n in range(3)]
    _match_over_due(awake, T0 - timedelta(minutes=1))  # due after all of the sleeper's
    clock.move_to(T0 + MINUTE)
    with run_tasks():
        assert notice_tasks.deliver_emails(batch=2) == 0  # the sleeper's oldest two: held
        assert notice_tasks.deliver_emails(batch=2) == 1  # held ones no longer come first
    assert [message.to for message in mail.outbox] == [["awake@example.com"]]
    quiet_end = T0.replace(hour=23, minute=0, second=0, microsecond=0)
    assert T0 + MINUTE < quiet_end  # the clock's day: UTC, before 23:00
    for notice in held:
        notice.refresh_from_db()
        assert (notice.email, notice.email_due_at) == ("pending", quiet_end)
    clock.move_to(quiet_end)
    with run_tasks():
        # the batch's two notices are the sleeper's: all three of theirs go, one each
        assert notice_tasks.deliver_emails(batch=2) == 3
        assert notice_tasks.deliver_emails(batch=2) == 0
    assert len(mails_of(sleeper)) == 3


def mails_of(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]
