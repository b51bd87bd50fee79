"""Domain events: what a write did to a table (a turn began, a hand or the match ended, a
seat was taken or left, a rematch offered, talk posted), and who is told.

A service records each event it causes with ``tables.services.outbox.record`` inside its
own transaction: one ``TableEvent`` row (``kind`` and ``payload``), so the event commits or
rolls back with the write. The outbox then hands each committed event to every subscriber
of its class, a table's events in ``(version, id)`` order, at least once. The services
never name a consumer: each app registers its subscribers at startup (``AppConfig.ready``,
``subscribe``): ``tables`` the bot's turn and the analysis (``tables.subscribers``),
``notices`` the notices it writes (``notices.subscribers``).

A subscriber is ``subscriber(delivery)`` (``Delivery``: the event, its row's id and when
it was written). It runs after the commit, in whatever process delivers it (the web
process after the answer, or the beat relay), so it does little: it queues its own Celery
task with the event's ids. It must do nothing the second time for the same event (by the
event's id or by keys of its own: a turn's version, a notice's unique key), because an
event is delivered again when a send fails halfway or the process dies before marking
it; and it must not raise for an event it has nothing to do with.

Every event carries ``table_id`` (``None`` for one of no table: its row keeps no order)
and ``version``, the table's version the write produced. Pure data: no Django import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any, ClassVar


@dataclass(frozen=True, kw_only=True)
class Event:
    """The base of every event: ``table_id`` (``None``: no table), ``version`` (the
    table's version the write produced; 0 for no table). ``kind`` names the class in its
    ``TableEvent`` row; the other fields are the row's ``payload`` (JSON)."""

    kind: ClassVar[str] = ""
    table_id: int | None
    version: int

    def payload(self) -> dict[str, Any]:
        """The fields besides ``table_id`` and ``version``, as JSON values."""
        data = asdict(self)
        del data["table_id"], data["version"]
        return data


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Event):
    """Seat ``seat``'s turn began (R16). ``bot``: a bot sits there. ``same_player``: the
    person who just moved has the turn again (their other hand in ``seven_plus_seven``):
    they are at the table, nobody is told."""

    kind: ClassVar[str] = "turn_started"
    seat: int
    bot: bool
    same_player: bool = False


@dataclass(frozen=True, kw_only=True)
class BotTurnLost(Event):
    """The bot's turn at ``version`` waited ``BOT_STUCK_SECONDS``: its task was lost (a
    broker outage, a worker crash) and is queued again (``services.resume_stuck_bot``)."""

    kind: ClassVar[str] = "bot_turn_lost"


@dataclass(frozen=True, kw_only=True)
class HandEnded(Event):
    """Hand ``number`` ended and the match goes on (the hand that ends a match is told by
    ``MatchEnded``)."""

    kind: ClassVar[str] = "hand_ended"
    number: int


@dataclass(frozen=True, kw_only=True)
class MatchEnded(Event):
    """The match ended: a target reached, abandoned, forfeited (R26, R27), closed idle
    (R28) or by a moderator. ``closed_by``: the seat whose player cancelled the table
    before it started."""

    kind: ClassVar[str] = "match_ended"
    closed_by: int | None = None


@dataclass(frozen=True, kw_only=True)
class SeatTaken(Event):
    """User ``user_id`` took a seat through an invite (R30)."""

    kind: ClassVar[str] = "seat_taken"
    user_id: int


@dataclass(frozen=True, kw_only=True)
class SeatLeft(Event):
    """User ``user_id`` (named ``name`` then) gave up seat ``seat_index`` of a waiting
    table; the seat is open again with a fresh link."""

    kind: ClassVar[str] = "seat_left"
    user_id: int
    name: str
    seat_index: int


@dataclass(frozen=True, kw_only=True)
class RematchOffered(Event):
    """A rematch of this finished table was asked for: table ``rematch_id`` waits for the
    people offered a seat."""

    kind: ClassVar[str] = "rematch_offered"
    rematch_id: int


@dataclass(frozen=True, kw_only=True)
class AnalysisRequested(Event):
    """The analysis ``analysis_id`` (``MatchAnalysis``) of a finished match is to be
    computed. Of no table (``table_id`` ``None``): it waits for no other event."""

    kind: ClassVar[str] = "analysis_requested"
    analysis_id: int


@dataclass(frozen=True, kw_only=True)
class TalkPosted(Event):
    """Talk messages ``message_ids`` (``moderation.TalkMessage``) reached the table's
    readers (a partner's words held during a hand are posted when it ends)."""

    kind: ClassVar[str] = "talk_posted"
    message_ids: list[int]


@dataclass(frozen=True, kw_only=True)
class ModerationActed(Event):
    """A moderator acted (``moderation.ModerationAction`` ``action_id``). Of no table."""

    kind: ClassVar[str] = "moderation_acted"
    action_id: int


#: Every event class by its ``kind``, to read rows back.
KINDS: dict[str, type[Event]] = {
    kind.kind: kind
    for kind in (
        TurnStarted,
        BotTurnLost,
        HandEnded,
        MatchEnded,
        SeatTaken,
        SeatLeft,
        RematchOffered,
        AnalysisRequested,
        TalkPosted,
        ModerationActed,
    )
}


def event_of(kind: str, table_id: int | None, version: int, payload: dict) -> Event:
    """The event a row holds. Raises ``KeyError`` for a ``kind`` no class has and
    ``TypeError`` for a payload that does not fit its class."""
    cls = KINDS[kind]
    known = {field.name for field in fields(cls)}
    given = {name: value for name, value in payload.items() if name in known}
    return cls(table_id=table_id, version=version, **given)


@dataclass(frozen=True)
class Delivery:
    """One committed event handed to a subscriber: ``event_id`` (its ``TableEvent``
    row, the same on every delivery of it), ``written_at`` (when the write recorded it:
    a subscriber that waits, the bot's delay, counts from there) and the ``event``."""

    event_id: int
    written_at: datetime
    event: Event


Subscriber = Callable[[Delivery], None]
_subscribers: dict[type[Event], list[Subscriber]] = {}


def subscribe(kind: type[Event], subscriber: Subscriber) -> None:
    """Deliver every ``kind`` event to ``subscriber`` (once: subscribing it again changes
    nothing). Called from ``AppConfig.ready``; subscribers of one kind run in the order
    they subscribed."""
    if kind.kind not in KINDS:
        raise ValueError(f"{kind.__name__} is no event class of tables.events.KINDS")
    subscribers = _subscribers.setdefault(kind, [])
    if subscriber not in subscribers:
        subscribers.append(subscriber)


def subscribers_of(kind: type[Event]) -> tuple[Subscriber, ...]:
    """The subscribers of ``kind``, in their order."""
    return tuple(_subscribers.get(kind, ()))
