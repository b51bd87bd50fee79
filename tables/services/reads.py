"""A read of a table writes nothing. What has come due is applied by the sweeps, never
by a reader: an overdue turn (R27) is forfeited by ``tables.tasks.sweep_absences`` (every
30 s) or by the next move, and until then the table reads as it is stored, with
``overdue`` in its view; a bot's lost turn is sent again by
``tables.tasks.sweep_stuck_bots``. That the reader was there (presence, the version their
seats have seen, the table's notices read) is recorded once the answer has gone, outside
the read (``table_read``, through ``core.table_reads``)."""

from __future__ import annotations

from collections.abc import Collection

from core.table_reads import table_read as record_read
from tables import selectors
from tables.models import Seat, Table


def table_for_user(table_id: int, user) -> tuple[Table, Seat]:
    """The table (its seats attached) and ``user``'s (first) seat, as stored: one query,
    no write (``selectors.table_for_user``).

    Raises ``TableError`` ``not_found`` (404) for a missing table or one the user does not
    sit at.
    """
    return selectors.table_for_user(table_id, user)


def table_read(table: Table, user) -> None:
    """``user`` was shown ``table`` at its version (the table page, the API's answer or a
    304 of its poll, a write's answer): once the answer has gone they count as present
    there, their seats as having seen this version (what the next read's
    ``since_your_last_visit`` starts from) and the table's notices as read
    (``core.table_reads.table_read``). Nothing is written during the read. ``table``'s
    seats must be attached (``table_for_user``, or the write that saved them)."""
    mine = [seat for seat in table.seat_set.all() if seat.user_id == user.pk]
    # a move's write saved the mover's seen version, and read whether they have unread
    # notices there, with its lock (``transitions``, ``locking``)
    seen = getattr(table, "seen_saved_for", None) == user.pk or all(
        seat.seen_version >= table.version for seat in mine
    )
    unread = getattr(table, "unread_notices", None)
    record_read(user_id=user.pk, table_id=table.pk, version=table.version, seen=seen, unread=unread)


def table_read_after_write(table: Table, user) -> Seat:
    """``user`` just wrote ``table`` (a move; its seats attached by the write) and is
    answered with it (``table_read`` records the read with the answer): nothing is read
    back. Returns the user's first seat."""
    return selectors.seat_for_user(table, user)


def seats_seen(*, user_ids: Collection[int], table_id: int, version: int) -> int:
    """Remember that the users ``user_ids`` have read table ``table_id`` at ``version``
    (every seat they hold): what their next read counts as "since your last visit". One
    conditional UPDATE, of no row when that version was seen already, outside any
    transaction of the read (``notices.table_reads`` calls it once the answer has gone).
    Returns how many seats it moved on."""
    return Seat.objects.filter(
        table_id=table_id, user_id__in=list(user_ids), seen_version__lt=version
    ).update(seen_version=version)
