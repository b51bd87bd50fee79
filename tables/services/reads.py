"""A read of a table applies first what has come due, so a player never sees a turn
whose time ran out (R27) or a bot's turn whose task was lost."""

from __future__ import annotations

from django.utils import timezone

from tables import selectors
from tables.models import Seat, Table
from tables.services.endings import table_forfeit_overdue
from tables.services.play import resume_stuck_bot


def table_for_user(table_id: int, user) -> tuple[Table, Seat]:
    """The table and ``user``'s (first) seat, applying the absence rule first (R27: an
    overdue turn is forfeited whenever the table is read, even if the sweep is late) and
    sending a stuck bot's turn again (``resume_stuck_bot``).

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
    return table, seat
