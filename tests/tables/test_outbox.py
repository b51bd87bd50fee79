"""The outbox sends tasks by name, on commit, through the task's own ``apply_async`` (so
eager mode still runs them inline): a name that is no task fails at once, inside the
write, not after the commit."""

from __future__ import annotations

import pytest
from celery import current_app
from celery.exceptions import NotRegistered

from notices import tasks as notice_tasks
from tables import tasks
from tables.services import outbox


def test_every_name_the_outbox_sends_is_a_registered_task():
    for name in outbox.TASK_NAMES:
        assert current_app.tasks[name].name == name
    assert set(outbox.TASK_NAMES) == {
        tasks.bot_play.name,
        notice_tasks.record_turn.name,
        notice_tasks.record_hand_over.name,
        notice_tasks.record_match_over.name,
        notice_tasks.record_seat_taken.name,
        notice_tasks.record_seat_left.name,
        notice_tasks.record_rematch_offered.name,
        tasks.analyse_match.name,
    }


def test_an_unknown_name_is_refused_when_queued(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with pytest.raises(NotRegistered):
            outbox.send_on_commit("tables.tasks.no_such_task", 1)
    assert callbacks == []


@pytest.mark.django_db
def test_a_queued_task_is_sent_after_the_commit_only(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        notice_tasks.record_match_over,
        "apply_async",
        lambda args, **options: sent.append(args),
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outbox.send_on_commit(outbox.MATCH_OVER_NOTICE, 7)
        assert sent == []
    assert len(callbacks) == 1
    callbacks[0]()
    assert sent == [(7,)]
