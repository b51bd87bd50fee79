"""The outbox records events, not consumers: an event's row is written inside the write,
its subscribers get it after the commit only (through their tasks' own ``apply_async``,
so eager mode still runs them inline), and an event class the outbox cannot read back is
refused at once, inside the write, not after the commit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from notices import tasks as notice_tasks
from tables import events
from tables.models import TableEvent
from tables.services import outbox


@dataclass(frozen=True, kw_only=True)
class Unlisted(events.Event):
    kind: ClassVar[str] = "unlisted"


def test_an_event_class_the_outbox_cannot_read_back_is_refused_when_recorded(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with pytest.raises(ValueError):
            outbox.record(Unlisted(table_id=1, version=1))
        with pytest.raises(ValueError):
            events.subscribe(Unlisted, print)
    assert callbacks == []


def test_every_kind_reads_back_as_the_event_it_was():
    examples = [
        events.TurnStarted(table_id=1, version=2, seat=1, bot=True),
        events.BotTurnLost(table_id=1, version=2),
        events.HandEnded(table_id=1, version=3, number=1),
        events.MatchEnded(table_id=1, version=4, closed_by=0),
        events.SeatTaken(table_id=1, version=5, user_id=9),
        events.SeatLeft(table_id=1, version=6, user_id=9, name="ana", seat_index=2),
        events.RematchOffered(table_id=1, version=7, rematch_id=8),
        events.AnalysisRequested(table_id=None, version=0, analysis_id=3),
        events.TalkPosted(table_id=1, version=7, message_ids=[4, 5]),
        events.ModerationActed(table_id=None, version=0, action_id=6),
    ]
    assert {type(event) for event in examples} == set(events.KINDS.values())
    for event in examples:
        assert events.event_of(event.kind, event.table_id, event.version, event.payload()) == event


@pytest.mark.django_db
def test_a_recorded_event_reaches_its_subscribers_after_the_commit_only(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        notice_tasks.record_match_over,
        "apply_async",
        lambda args, **options: sent.append(args),
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outbox.record(events.MatchEnded(table_id=7, version=3))
        assert sent == []
    row = TableEvent.objects.get()
    assert (row.table_id, row.version, row.kind, row.payload) == (
        7,
        3,
        "match_ended",
        {"closed_by": None},
    )
    assert len(callbacks) == 1
    callbacks[0]()
    assert sent == [(7, None)]
    assert TableEvent.objects.get().delivered_at is not None
