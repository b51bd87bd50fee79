"""A rematch: the same people, profile, target and seats again, once per finished table.
Any seated player asks for it; bots sit again at once, every other person is offered the
seat they had and accepts or declines with one click. The new table starts when all have
accepted; a decline, or the idle close of a waiting table (R28, 7 days), ends the offer.
A table where a player has since deleted their account has no rematch (refused at once);
a person offered a seat who deletes their account closes the offer at once
(``accounts.services.account_delete`` abandons their waiting tables).

A person offered a seat holds it with ``joined_at`` unset until they accept; the table
waits (``status`` waiting) meanwhile, so it shows in their "my tables".
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tables import guards
from tables.errors import (
    no_rematch_offer,
    rematch_exists,
    rematch_player_deleted,
    table_not_finished,
)
from tables.events import RematchOffered
from tables.models import Seat, Table
from tables.services import outbox, transitions
from tables.services.endings import close_without_winner
from tables.services.lobby import start_match


def rematch_offer(*, table_id: int, user) -> Table:
    """Ask for the rematch of finished table ``table_id`` (``user`` sat there): a new
    table with its profile, target, move time and seats, ``rematch_of`` pointing back, ``user`` and
    the bots seated, every other person offered their seat (``rematch_answer``). It
    starts at once when nobody else is asked (against bots only).

    Raises ``TableError``: ``not_found`` (404, not seated there), ``table_not_finished``
    (409, the match is still waiting or playing), ``rematch_exists`` (409, asked before;
    ``table`` names it), ``rematch_player_deleted`` (409, a player there has deleted their
    account: nothing is created, the offer could never be accepted by all), or a player
    guard's refusal (``tables.guards``, as creating a table: 403 ``suspended`` for a
    suspended player; nothing is created).
    """
    now = timezone.now()
    with transaction.atomic():
        table = transitions.lock(table_id)
        seats = transitions.table_seats(table)
        transitions.seats_of_user(seats, user)  # 404 for anyone not seated
        if table.status != Table.Status.FINISHED:
            raise table_not_finished()
        existing = Table.objects.filter(rematch_of=table).values_list("pk", flat=True).first()
        if existing is not None:
            raise rematch_exists(existing)
        if any(seat.player_deleted for seat in seats):
            raise rematch_player_deleted()  # that seat could never be taken again
        guards.check(user, "create")  # a rematch is a new table: a suspension refuses it
        rematch = Table.objects.create(
            seats=table.seats,
            target=table.target,
            rules=table.rules,
            move_seconds=table.move_seconds,
            creator=user,
            last_move_at=now,
            rematch_of=table,
        )
        rows = [
            Seat(
                table=rematch,
                index=seat.index,
                user_id=seat.user_id,
                bot=seat.bot,
                team=seat.team,
                second_hand=seat.second_hand,
                joined_at=now if seat.bot or seat.user_id == user.pk else None,
            )
            for seat in seats
        ]
        transitions.list_rows(rematch, rows)  # waiting, in everyone's list
        Seat.objects.bulk_create(rows)
        if all(row.joined_at for row in rows):
            start_match(rematch, transitions.table_seats(rematch), now)
        else:  # each person asked gets a ``rematch_offered`` notice (inbox, e-mail, push)
            outbox.record(
                RematchOffered(table_id=table.pk, version=table.version, rematch_id=rematch.pk)
            )
    return rematch


def rematch_answer(*, table_id: int, user, accept: bool) -> Table:
    """``user`` accepts (``accept``) or declines the rematch offered at waiting table
    ``table_id``. Accepting takes every seat offered to them; the match starts when the
    last person accepts. Declining closes the table with no winner (outcome
    ``declined``): the offer ends for everyone.

    Raises ``TableError``: ``not_found`` (404, not offered a seat there),
    ``no_rematch_offer`` (409, not a rematch, no longer waiting, or already accepted), or,
    when accepting, a player guard's refusal (``tables.guards``, as joining a table: 403
    ``suspended`` for a suspended player; nothing changes). Declining is never refused by
    a guard: it starts nothing.
    """
    now = timezone.now()
    with transaction.atomic():
        table = transitions.lock(table_id)
        seats = transitions.table_seats(table)
        mine = transitions.seats_of_user(seats, user)
        pending = [seat for seat in mine if seat.joined_at is None]
        if table.rematch_of_id is None or table.status != Table.Status.WAITING or not pending:
            raise no_rematch_offer()
        if not accept:
            close_without_winner(table, now, Table.Outcome.DECLINED)
            return table
        guards.check(user, "join")  # accepting takes a seat: a suspension refuses it
        for seat in pending:
            seat.joined_at = now
        Seat.objects.bulk_update(pending, ["joined_at"])
        if all(seat.joined_at for seat in seats):
            start_match(table, seats, now)
        else:
            transitions.save_next_version(table)
    return table
