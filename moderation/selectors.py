"""Reads of table talk and moderation: what a seated player may read of a table's talk,
whether someone is suspended, what the moderation log tells a player.

The delivery rule (docs/moderation.md): a message is shown to its author at once; to the
other players at once, unless it is ``held`` (written during a hand at a partnership
table), in which case only once that hand has ended or the table is over. A draw's tile in
the move a message followed is shown as the move log shows it (R31).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Q
from django.utils import timezone

from moderation.models import MAX_TALK_LENGTH, ModerationAction, Report, TalkMessage, TalkMute
from moderation.ui_strings import PHRASES, phrases
from tables import selectors as table_selectors
from tables.models import Hand, Move, Seat, Table


def active_suspension(user) -> ModerationAction | None:
    """The suspension of ``user`` running now (the one ending last), else ``None``."""
    if user is None or not getattr(user, "pk", None):
        return None
    return (
        ModerationAction.objects.filter(
            user=user, kind=ModerationAction.Kind.SUSPEND, until__gt=timezone.now()
        )
        .order_by("-until")
        .first()
    )


def holds_talk(table: Table) -> bool:
    """True when a message written now at ``table`` must wait for the hand's end: a
    partnership table (4 seats) whose hand is being played."""
    if table.seats != 4 or table.status != Table.Status.PLAYING:
        return False
    hand = Hand.objects.filter(table=table).order_by("-number").only("ended_at").first()
    return hand is not None and hand.ended_at is None


def _delivered(message: TalkMessage, user, ended_hands: set[int], table_over: bool) -> bool:
    if message.author_id == user.pk or not message.held or table_over:
        return True
    return message.hand_number in ended_hands


def _moves_followed(table: Table, messages: list[TalkMessage], own: set[int]) -> dict:
    """``{(hand, sequence): move dict}`` for the moves the messages followed, each tile
    as the move log shows it to the seats ``own`` (R31)."""
    wanted = {(m.hand_number, m.after_sequence) for m in messages if m.after_sequence is not None}
    if not wanted:
        return {}
    hands = {hand for hand, _sequence in wanted}
    moves = Move.objects.filter(table=table, hand__number__in=hands).select_related("hand")
    found = {}
    for move in moves:
        key = (move.hand.number, move.sequence)
        if key not in wanted:
            continue
        hidden = move.kind == "draw" and move.seat not in own and move.hand.ended_at is None
        found[key] = {
            "sequence": move.sequence,
            "seat": move.seat,
            "kind": move.kind,
            "tile": None if hidden or move.kind == "pass" else move.tile,
            # A play on no end led the hand ("salió con 6-6"); public, as the log is.
            "lead": move.kind == "play" and move.end is None,
        }
    return found


def talk_for_user(table_id: int, user) -> dict[str, Any]:
    """A table's talk as ``user`` (seated there) may read it:
    ``{"table", "held", "muted", "muted_seats", "muted_people", "hidden", "can_post",
    "max_length", "phrases", "report_reasons", "messages": [{"id", "seat", "name", "mine",
    "text", "phrase",
    "created_at", "hand", "after_move", "written", "held", "pending", "removed",
    "removed_reason"}],
    "moderation": [{"kind", "label", "reason", "created_at"}]}``.

    ``held``: what the user writes now waits for the hand's end. ``pending``: the user's
    own held message, not yet delivered. ``after_move`` ``{"sequence", "seat", "kind",
    "tile", "lead"}`` is the last move of its hand when it was written (null: none yet;
    ``lead``: a play that led the hand). ``written`` says where it was written
    (``written_at``): its marker. Messages from people the user muted are left out; a
    muted table shows only the user's own. ``hidden``: how many messages the user would
    read here but for those mutes (delivered ones only: a held message still waiting for
    its hand's end is not counted, as it is not shown). ``muted_people`` ``[{"id" (the
    mute's), "seat", "name", "hidden"}]``: the people seated here whom the user muted
    everywhere, once each, with how many of their messages are hidden here.
    Raises ``TableError`` ``not_found`` (404) for anyone not seated, as every table read.
    """
    table, _seat = table_selectors.table_for_user(table_id, user)
    own = {seat.index for seat in table_selectors.seats_for_user(table, user)}
    names = {seat.index: seat.display_name for seat in table.seat_set.all()}
    mutes = list(TalkMute.objects.filter(user=user).filter(Q(table=table) | Q(table__isnull=True)))
    muted_table = any(mute.table_id == table.pk for mute in mutes)
    muted_people = {mute.muted_user_id for mute in mutes if mute.muted_user_id}
    ended = set(
        Hand.objects.filter(table=table, ended_at__isnull=False).values_list("number", flat=True)
    )
    removals = {
        action.message_id: action.reason
        for action in ModerationAction.objects.filter(
            table=table, kind=ModerationAction.Kind.REMOVE_MESSAGE
        )
    }
    shown, hidden = _shown_and_hidden(table, user, ended, muted_table, muted_people)
    followed = _moves_followed(table, shown, own)
    return {
        "table": table.pk,
        "held": holds_talk(table),
        "muted": muted_table,
        "muted_seats": sorted(
            seat.index for seat in table.seat_set.all() if seat.user_id in muted_people
        ),
        "muted_people": _muted_people(table, mutes, hidden),
        "hidden": hidden.total(),
        "can_post": active_suspension(user) is None,
        "max_length": MAX_TALK_LENGTH,
        "phrases": phrases(),
        "report_reasons": [{"key": key, "text": str(text)} for key, text in Report.Reason.choices],
        "messages": [_message_view(m, user, names, followed, ended, removals) for m in shown],
        "moderation": _table_closings(table),
    }


def _shown_and_hidden(
    table: Table, user, ended: set[int], muted_table: bool, muted_people: set[int]
) -> tuple[list[TalkMessage], Counter]:
    """The messages delivered to ``user`` at ``table`` (``ended``: its ended hands), split
    into those shown, in order, and those the user's mutes hide, counted by author. A
    message not yet delivered (held until its hand's end) is in neither."""
    table_over = not table.is_active
    shown, hidden = [], Counter()
    for message in TalkMessage.objects.filter(table=table).order_by("id"):
        if not _delivered(message, user, ended, table_over):
            continue
        mine = message.author_id == user.pk
        if not mine and (muted_table or message.author_id in muted_people):
            hidden[message.author_id] += 1
        else:
            shown.append(message)
    return shown, hidden


def _muted_people(table: Table, mutes: list[TalkMute], hidden: Counter) -> list[dict[str, Any]]:
    """The people at ``table`` whom ``mutes`` silence everywhere, in seat order, a person
    at two seats once (at their first): ``[{"id" (the mute's), "seat", "name", "hidden"}]``,
    ``hidden`` the number of their messages left out (``hidden``: by author)."""
    by_person = {mute.muted_user_id: mute.pk for mute in mutes if mute.muted_user_id}
    found: dict[int, dict[str, Any]] = {}
    for seat in sorted(table.seat_set.all(), key=lambda seat: seat.index):
        if seat.user_id in by_person and seat.user_id not in found:
            found[seat.user_id] = {
                "id": by_person[seat.user_id],
                "seat": seat.index,
                "name": seat.display_name,
                "hidden": hidden[seat.user_id],
            }
    return list(found.values())


def _table_closings(table: Table) -> list[dict[str, Any]]:
    """The moderators' closing of ``table``, with its reason, as its players read it."""
    return [
        {
            "kind": action.kind,
            "label": action.get_kind_display(),
            "reason": action.reason,
            "created_at": action.created_at,
        }
        for action in ModerationAction.objects.filter(
            table=table, kind=ModerationAction.Kind.CLOSE_TABLE
        )
    ]


def written_at(message: TalkMessage) -> str:
    """Where in the match ``message`` was written, for its marker: ``"before_match"`` (no
    hand dealt yet), ``"match_over"`` (the match had ended), ``"hand_start"`` (its hand
    dealt, no move played: also just after the hand before it ended, as the next hand is
    dealt at once) or ``"after_move"`` (after its ``after_move``)."""
    if message.hand_number is None:
        return "before_match"
    if message.after_match:
        return "match_over"
    return "hand_start" if message.after_sequence is None else "after_move"


def _message_view(message, user, names, followed, ended, removals) -> dict[str, Any]:
    removed = message.removed_at is not None
    phrase = PHRASES.get(message.phrase)
    return {
        "id": message.pk,
        "seat": message.seat,
        "name": names.get(message.seat, ""),
        "mine": message.author_id == user.pk,
        "text": "" if removed else (str(phrase) if phrase else message.text),
        "phrase": None if removed or not message.phrase else message.phrase,
        "created_at": message.created_at,
        "hand": message.hand_number,
        "after_move": followed.get((message.hand_number, message.after_sequence)),
        "written": written_at(message),
        "held": message.held,
        "pending": message.held
        and message.hand_number not in ended
        and message.author_id == user.pk,
        "removed": removed,
        "removed_reason": removals.get(message.pk, "") if removed else "",
    }


def mutes_of(user) -> list[dict[str, Any]]:
    """``user``'s mutes: ``[{"id", "table" | None, "user" | None (a username)}]``."""
    return [
        {
            "id": mute.pk,
            "table": mute.table_id,
            "user": mute.muted_user.username if mute.muted_user else None,
        }
        for mute in TalkMute.objects.filter(user=user).select_related("muted_user").order_by("id")
    ]


def muted_players(user) -> list[dict[str, Any]]:
    """The people ``user`` muted at every table, by name: ``[{"id" (the mute's), "name",
    "since"}]`` for the settings page, where each can be heard again."""
    mutes = (
        TalkMute.objects.filter(user=user, muted_user__isnull=False)
        .select_related("muted_user")
        .order_by("muted_user__username")
    )
    return [
        {"id": mute.pk, "name": mute.muted_user.username, "since": mute.created_at}
        for mute in mutes
    ]


def notices_for(user) -> list[dict[str, Any]]:
    """What the moderation log tells ``user`` about themselves: warnings, suspensions
    (with ``until``), deactivation, their tables closed and messages removed, newest
    first: ``[{"kind", "label", "reason", "table", "until", "created_at"}]``."""
    mine = Q(user=user) | Q(message__author=user)
    tables = Seat.objects.filter(user=user).values("table_id")
    mine |= Q(kind=ModerationAction.Kind.CLOSE_TABLE, table__in=tables)
    return [
        {
            "kind": action.kind,
            "label": action.get_kind_display(),
            "reason": action.reason,
            "table": action.table_id,
            "until": action.until,
            "created_at": action.created_at,
        }
        for action in ModerationAction.objects.filter(mine).exclude(
            kind__in=[ModerationAction.Kind.DISMISS_REPORT, ModerationAction.Kind.REFUSED]
        )
    ]


def talk_readers(table: Table, messages: list[TalkMessage]) -> dict[int, list[TalkMessage]]:
    """Who each of ``messages`` (delivered now at ``table``) reaches:
    ``{user id: [their messages]}`` for every person seated but the author, leaving out
    whoever muted the table's talk or that author, and removed messages. Bots do not
    read; a two-hand player is one reader."""
    readers = set(
        Seat.objects.filter(table=table, user__isnull=False, bot="").values_list(
            "user_id", flat=True
        )
    )
    mutes = TalkMute.objects.filter(user_id__in=readers).filter(
        Q(table=table) | Q(table__isnull=True)
    )
    muted_table = {mute.user_id for mute in mutes if mute.table_id == table.pk}
    muted_people = {(mute.user_id, mute.muted_user_id) for mute in mutes if mute.muted_user_id}
    reached: dict[int, list[TalkMessage]] = {}
    for reader in sorted(readers - muted_table):
        for message in messages:
            if message.removed_at is not None or message.author_id in (None, reader):
                continue
            if (reader, message.author_id) not in muted_people:
                reached.setdefault(reader, []).append(message)
    return reached
