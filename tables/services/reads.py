"""A read of a table applies first what has come due, so a player never sees a turn
whose time ran out (R27) or a bot's turn whose task was lost, and records that the reader
is at the table (``notices.services.table_seen``: no e-mail or push while they are, and
that table's notices are read)."""

from __future__ import annotations

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

    Raises ``TableError`` ``not_found`` (404) for a missing table or one the user does not
    sit at.
    """
    table, seat = selectors.table_for_user(table_id, user)
    if (
        table.status == Table.Status.PLAYING
        and table.deadline is not None
        and timezone.now() > table.deadline
    ):
        table_forfeit_overdue(table_id=table.pk)
        table, seat = selectors.table_for_user(table_id, user)
    elif resume_stuck_bot(table):
        # the bot may have played inline (no broker)
        table, seat = selectors.table_for_user(table_id, user)
    notice_services.table_seen(user=user, table_id=table.pk)
    return table, seat


def table_seen(table: Table, user) -> None:
    """Remember that ``user`` has read ``table`` at its current version (every seat they
    hold): what the next read counts as "since your last visit". One conditional UPDATE
    that writes nothing when the version was already seen, so polling costs no write."""
    Seat.objects.filter(table=table, user=user, seen_version__lt=table.version).update(
        seen_version=table.version
    )
