"""A player's account going, as far as tables go: the ``leave`` and ``let_go`` steps of
``accounts.services.account_delete`` and the ``tables`` part of the data download
(``accounts.services.account_export``), registered in ``tables.apps``."""

from __future__ import annotations

from tables import selectors as table_selectors
from tables import services as table_services
from tables.errors import TableError
from tables.models import Seat, Table

#: ``table_abandon``'s refusals that leave nothing to abandon at a table that changed
#: between listing it and locking it (another request, a worker): it ended (a move
#: finished the match, the idle close, the absence sweep, a moderator; or the player
#: already left a hand that goes on, ``first_double``): ``hand_over``; or the player is
#: no longer seated there (a guest who gave up a waiting table's seat, ``seat_leave``, in
#: another request just before): ``not_found``.
NOTHING_TO_ABANDON = frozenset({"hand_over", "not_found"})


def active_table_ids(user) -> list[int]:
    """The ids of the tables ``user`` sits at that are waiting or playing, in order."""
    return list(
        Table.objects.filter(seat_set__user=user, status__in=table_services.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )


def abandon_every_table(user) -> None:
    """The ``leave`` step: every active table ``user`` sits at is abandoned through
    ``tables.services.table_abandon`` (R26: a playing table is lost by the player's side
    and the others are mailed; a waiting one is closed if they created it (or it is a
    rematch), else they give up their seat, which opens again; in ``first_double`` at 3-4
    seats the player leaves and the hand goes on without them, as it does when they have
    already left). A table that ended or that they left after it was listed is skipped
    (``NOTHING_TO_ABANDON``); any other ``TableError`` goes up and undoes the deletion."""
    for table_id in active_table_ids(user):
        try:
            table_services.table_abandon(table_id=table_id, user=user)
        except TableError as refusal:
            if refusal.code not in NOTHING_TO_ABANDON:
                raise


def let_go_of_seats(user) -> None:
    """The ``let_go`` step: every seat ``user`` still holds keeps its place as «jugador
    eliminado» (``Seat.player_deleted``; no second hand, no invite link) and the tables
    they created lose their creator. Finished tables' moves and hands are untouched, so
    their records still replay."""
    Seat.objects.filter(user=user).update(
        user=None, player_deleted=True, second_hand=False, invite_token=None
    )
    Table.objects.filter(creator=user).update(creator=None)


def tables_exported(user) -> list[dict]:
    """The download's ``tables``: every table ``user`` sat at (seats by name, status,
    scores) and the record (``dominoes-record/1``) of every finished one. A running hand
    is never included: records hold finished hands only (R31)."""
    tables = []
    table_ids = Seat.objects.filter(user=user).values_list("table_id", flat=True).distinct()
    for table in Table.objects.filter(pk__in=table_ids).order_by("pk"):
        seats = Seat.objects.filter(table=table).select_related("user").order_by("index")
        entry = {
            "id": table.pk,
            "rules": table.rules,
            "seats": table.seats,
            "target": table.target,
            "status": table.status,
            "outcome": table.outcome,
            "created_at": table.created_at.isoformat(),
            "finished_at": table.finished_at.isoformat() if table.finished_at else None,
            "winners": table.winners,
            "your_seats": [seat.index for seat in seats if seat.user_id == user.pk],
            "players": [
                {"seat": seat.index, "name": seat.display_name, "score": seat.score}
                for seat in seats
            ],
        }
        if not table.is_active and table.state is not None:
            entry["record"] = table_selectors.table_record(table)
        tables.append(entry)
    return tables
