"""Notices fed from the moderation app: new table talk (``talk``) and a moderator's
action (``moderation``). Both are inbox only: no e-mail, no push.

Apart from ``notices.services`` because they read the talk and the moderation log
(``moderation``), which the notice services' other callers need not reach. Only the tasks
(``notices.moderation_tasks``) call these, queued by this app's subscribers
(``notices.subscribers``) for the events moderation records (``TalkPosted``,
``ModerationActed``) and for a hand's or the match's end (held talk).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from moderation import selectors as talk_selectors
from moderation.models import ModerationAction, TalkMessage
from notices import services
from notices.models import Notification
from tables.models import Hand, Seat, Table

Kind = Notification.Kind

#: The ids a ``talk`` notice remembers (so a retried task counts no message twice).
TALK_IDS_KEPT = 100


def _talk_notice(reader_id: int, table: Table, messages: list, base: dict, names: dict):
    """Add ``messages`` to ``reader_id``'s one ``talk`` row of ``table`` (locked): while
    it is unread, the count grows by the messages it did not hold yet; once read, the row
    starts again, unread and newest, with the new messages only. It keeps the last
    ``TALK_IDS_KEPT`` ids it told, read or not, so a message delivered again (a retried
    task, the outbox's relay) is never told twice. ``None`` when nothing was new."""
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update()
            .filter(recipient_id=reader_id, table=table, kind=Kind.TALK, key="")
            .first()
        )
        if row is None:
            try:
                with transaction.atomic():
                    row = Notification.objects.create(
                        recipient_id=reader_id, table=table, kind=Kind.TALK, key="", read_at=None
                    )
            except IntegrityError:  # another task wrote it first: add to that one
                row = Notification.objects.select_for_update().get(
                    recipient_id=reader_id, table=table, kind=Kind.TALK, key=""
                )
        fresh = row.read_at is not None or not row.payload  # read, or just written
        # The ids told stay after a read: the same messages delivered again count nothing.
        known = set(row.payload.get("messages", []))
        new = [m for m in messages if m.pk not in known]
        if not new:
            return None
        authors = [] if fresh else row.payload.get("authors", [])
        ids = [*sorted(known), *(m.pk for m in new)][-TALK_IDS_KEPT:]
        row.payload = base | {
            "authors": services.once([*authors, *(names.get(m.seat, "") for m in new)]),
            "count": (0 if fresh else row.payload.get("count", 0)) + len(new),
            "messages": ids,
        }
        row.read_at = None
        row.created_at = timezone.now()
        row.save(update_fields=["payload", "read_at", "created_at"])
        return row


def record_talk(*, table_id: int, message_ids: list[int]) -> list[Notification]:
    """Talk messages ``message_ids`` of ``table_id`` were delivered (at once, or released
    at the hand's end): every other person seated who has not muted the table or the
    author gets their one ``talk`` notice of the table, written or refreshed (inbox only:
    never an e-mail or a push per message). Its payload: the table's public facts, the
    authors' names and how many messages; never a message's text, never a tile. Returns
    the rows written or refreshed."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return []
    messages = list(TalkMessage.objects.filter(table=table, pk__in=message_ids).order_by("pk"))
    reached = talk_selectors.talk_readers(table, messages)
    if not reached:
        return []
    seats = services.seats_of(table)
    names = {seat.index: services.seat_name(table, seats, seat) for seat in seats}
    base = services.public_facts(table, seats)
    written = []
    for reader_id, theirs in reached.items():
        row = _talk_notice(reader_id, table, theirs, base, names)
        if row is not None:
            written.append(row)
    return written


def record_talk_released(*, table_id: int, hand_number: int | None = None) -> list[Notification]:
    """A partnership hand ended (``hand_number``; ``None``: the table ended, so its last
    hand's): its held messages reach the others now (``record_talk``)."""
    if hand_number is None:
        hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
        if hand is None:
            return []
        hand_number = hand.number
    held = TalkMessage.objects.filter(table_id=table_id, hand_number=hand_number, held=True)
    ids = list(held.values_list("pk", flat=True))
    return record_talk(table_id=table_id, message_ids=ids) if ids else []


def _concerned(action: ModerationAction) -> list[int]:
    """Who a moderator's ``action`` concerns: the player warned or suspended, or everyone
    seated at the table closed."""
    if action.kind == ModerationAction.Kind.CLOSE_TABLE:
        return services.once(
            Seat.objects.filter(table_id=action.table_id, user__isnull=False, bot="")
            .order_by("index")
            .values_list("user_id", flat=True)
        )
    return [action.user_id] if action.user_id else []


def record_moderation(*, action_id: int) -> list[Notification]:
    """A moderator warned or suspended a player, or closed a table: a ``moderation``
    notice (inbox only) to each person concerned, with the action, its reason and, for a
    suspension, until when. Once per action and person. Returns the notices written."""
    action = ModerationAction.objects.filter(pk=action_id).first()
    if action is None:
        return []
    payload = {
        "action": action.kind,
        "reason": action.reason,
        "table": action.table_id,
        "until": action.until.isoformat() if action.until else None,
    }
    people = get_user_model().objects.filter(pk__in=_concerned(action))
    written = []
    for person in people:
        try:
            with transaction.atomic():
                written.append(
                    Notification.objects.create(
                        recipient=person,
                        kind=Kind.MODERATION,
                        table_id=action.table_id,
                        key=str(action.pk),
                        payload=payload,
                    )
                )
        except IntegrityError:  # a retried task: written already
            continue
    return written
