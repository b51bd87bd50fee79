"""A read of a table applies first what has come due, so a player never sees a turn
whose time ran out (R27) or a bot's turn whose task was lost, and records that the reader
is at the table (``notices.services.table_seen``: no e-mail or push while they are, and
that table's notices are read)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.utils import timezone

from notices import services as notice_services
from tables import selectors
from tables.models import Seat, Table
from tables.services.endings import table_forfeit_overdue
from tables.services.play import resume_stuck_bot


def table_for_user(table_id: int, user) -> tuple[Table, Seat]:
    """The table and ``user``'s (first) seat, applying the absence rule first (R27: an
    overdue turn is forfeited whenever the table is read, even if the sweep is late) and
    sending a stuck bot's turn again (``resume_stuck_bot``). The reader is present at the
    table for ``PRESENCE_SECONDS`` and its notices are marked read.

    One query when nothing is due and nothing is unread: the table, its seats and whether
    the reader has unread notices there (``notices.services.unread_at_table``).

    Raises ``TableError`` ``not_found`` (404) for a missing table or one the user does not
    sit at.
    """
    unread = _unread_here
    table, seat = selectors.table_for_user(table_id, user, unread=unread)
    if (
        table.status == Table.Status.PLAYING
        and table.deadline is not None
        and timezone.now() > table.deadline
    ):
        table_forfeit_overdue(table_id=table.pk)
        table, seat = selectors.table_for_user(table_id, user, unread=unread)
    elif resume_stuck_bot(table):
        # the bot may have played inline (no broker)
        table, seat = selectors.table_for_user(table_id, user, unread=unread)
    notice_services.table_seen(user=user, table_id=table.pk, unread=table.unread_notices)
    return table, seat


def _unread_here(user_id: int) -> Exists:
    """Whether user ``user_id`` has unread notices at the seat row's table: the
    ``unread`` of the read (``selectors.table_for_user``, compiled once for it)."""
    return notice_services.unread_at_table(user_id, OuterRef("table_id"))


def table_read_after_write(table: Table, user) -> Seat:
    """``user`` just wrote ``table`` (a move; its seats attached by the write) and reads
    the answer: present at the table, its notices marked read, as any read
    (``table_for_user``), but nothing is read back. Returns the user's first seat."""
    seat = selectors.seat_for_user(table, user)
    unread = getattr(table, "unread_notices", None)  # read with the seats, when it was
    notice_services.table_seen(user=user, table_id=table.pk, unread=unread)
    return seat


def table_seen(table: Table, user) -> None:
    """Remember that ``user`` has read ``table`` at its current version (every seat they
    hold): what the next read counts as "since your last visit". One conditional UPDATE
    that writes nothing when the version was already seen, so polling costs no write, and
    no query at all when the table's attached seats (``selectors.attach_seats``) show
    every seat of theirs has seen it, or the move that is answered saved it already
    (``table.seen_saved_for``)."""
    cached = getattr(table, "_prefetched_objects_cache", {}).get("seat_set")
    reader = getattr(user, "pk", None)
    if reader is not None and getattr(table, "seen_saved_for", None) == reader:
        # the move's write saved it (``transitions.save_transition``'s ``seen_by``)
        for seat in cached if cached is not None else ():
            if seat.user_id == reader:
                seat.seen_version = max(seat.seen_version, table.version)
        return
    if cached is not None:
        mine = [seat for seat in cached if seat.user_id == getattr(user, "pk", None)]
        if mine and all(seat.seen_version >= table.version for seat in mine):
            return
    Seat.objects.filter(table=table, user=user, seen_version__lt=table.version).update(
        seen_version=table.version
    )
    for seat in cached if cached is not None else ():
        if seat.user_id == getattr(user, "pk", None):
            seat.seen_version = max(seat.seen_version, table.version)
