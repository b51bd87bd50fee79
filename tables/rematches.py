"""Reads about rematches (``tables.services.rematch`` writes them): which table is whose
rematch, and who has still to answer an offer. Under ``tables.selectors``, which puts
these facts in the table view."""

from __future__ import annotations

from typing import Any

from tables.models import Table


def unanswered_seats(table: Table) -> list[int]:
    """The seats of rematch table ``table`` whose person has not accepted yet (offered
    seats hold their person with ``joined_at`` unset); empty once it stops waiting.
    Reads the table's (prefetched) seats."""
    if table.status != Table.Status.WAITING or table.rematch_of_id is None:
        return []
    return [seat.index for seat in table.seat_set.all() if seat.user_id and not seat.joined_at]


def rematch_pending(table: Table, user) -> bool:
    """True while ``user`` has a seat at rematch table ``table`` to accept or decline."""
    waiting = set(unanswered_seats(table))
    return any(
        seat.index in waiting and seat.user_id == getattr(user, "pk", None)
        for seat in table.seat_set.all()
    )


def rematch_asker(table: Table) -> str:
    """The name of whoever asked for rematch table ``table`` (its creator), as the table
    shows it; ``""`` for a table that is no rematch, or whose asker has no seat there."""
    if table.rematch_of_id is None:
        return ""
    seat = next(
        (s for s in table.seat_set.all() if s.user_id == table.creator_id and not s.second_hand),
        None,
    )
    return seat.display_name if seat is not None else ""


def rematch_facts(table: Table, user) -> dict[str, Any]:
    """The rematch links of ``table`` for the table view: ``rematch`` (``{"id",
    "status"}`` of the rematch asked for at this finished table, else ``None``; one
    query), ``rematch_possible`` (a finished table none of whose players has deleted their
    account), ``rematch_of`` (the table this one is the rematch of), ``rematch_pending``
    (``user`` still has to answer here) and ``rematch_waiting_for`` (the seats whose
    person has not accepted)."""
    rematch = None
    if table.status == Table.Status.FINISHED:
        rematch = Table.objects.filter(rematch_of=table).values("id", "status").first()
    return {
        "rematch": rematch,
        "rematch_possible": table.status == Table.Status.FINISHED
        and not any(seat.player_deleted for seat in table.seat_set.all()),
        "rematch_of": table.rematch_of_id,
        "rematch_pending": rematch_pending(table, user),
        "rematch_waiting_for": unanswered_seats(table),
    }
