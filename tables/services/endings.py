"""How a match ends before its target: a player leaves (R26), a turn's move time runs out
(R27: the table's ``move_seconds``), nobody moves for ``IDLE_SECONDS`` (R28: 7 days by
default), or a moderator closes the table."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from dominoes import MatchOutcome, abandon, close_idle, match_from_dict, match_to_dict
from tables import seating
from tables.errors import match_over
from tables.events import MatchEnded
from tables.models import Seat, Table
from tables.services import lobby, outbox, transitions


def expire_if_overdue(table: Table, seats: list[Seat], now: datetime) -> bool:
    """Apply the absence rule (R27) to a locked table whose deadline has passed: the human
    seat to act abandons (R26, through ``dominoes.abandon``, as ``table_abandon`` does) and
    the table ends with outcome ``absent``. Returns True when it did.

    The deadline is exact: at ``deadline`` the turn is still playable, a moment later it is
    not, whoever gets here first (the sweep, a read, a move, an abandon).
    """
    if table.status != Table.Status.PLAYING or table.deadline is None or now <= table.deadline:
        return False
    match = transitions.match_of(table)
    if match.is_over or match.hand.is_over:
        return False
    absent = transitions.clock_seat(seats, match)  # the turn, or who chooses the leader
    if seats[absent].bot:
        return False  # nobody is on the clock (bots never time out, R27)
    after = transitions.continue_match(abandon(match, absent, MatchOutcome.ABANDONED))
    if after.is_over:  # else the hand goes on without the absent seat (leavers_sit_out)
        table.outcome = Table.Outcome.ABSENT
    transitions.save_transition(table, seats, match, after, now, chosen_actions=0)
    transitions.follow_up(table, seats, after)
    return True


def lost_by_absence(table: Table, mine: list[Seat]) -> bool:
    """True when one of the seats ``mine`` already lost this table by absence (R27), e.g.
    to the sweep (holding two seats, either hand's absence loses the pair's match)."""
    if table.outcome != Table.Outcome.ABSENT or table.state is None:
        return False
    return transitions.match_of(table).abandoned_by in {seat.index for seat in mine}


def table_abandon(*, table_id: int, user) -> Table:
    """``user`` leaves the match and loses it (R26). Holding both seats of a pair
    (``seven_plus_seven``) the pair abandons: the other pair wins (R26 with partners).

    A table still waiting for players (R30) is closed with no winner (outcome
    ``abandoned``) only by its creator, or by anyone at a rematch (whose seats are
    offered to named people, not shared by link): the others seated get a
    ``match_over`` notice naming who cancelled it. A guest who took a seat by invite gives
    it up instead (``lobby.seat_leave``: the seat opens with a fresh link, the table
    keeps waiting, the others are told); the table returned is then still ``waiting``.

    Raises ``TableError``: ``not_found`` (404, not seated), ``hand_over`` (409, already
    over)."""
    now = timezone.now()
    with transaction.atomic():
        table = transitions.lock(table_id)
        seats = transitions.table_seats(table)
        seat = transitions.seats_of_user(seats, user)[0]
        if expire_if_overdue(table, seats, now):
            return table
        if table.status == Table.Status.WAITING:
            if table.creator_id != user.pk and table.rematch_of_id is None:
                lobby.seat_leave(table, seats, user)
                return table
            close_without_winner(table, now, Table.Outcome.ABANDONED)
            outbox.record(
                MatchEnded(table_id=table.pk, version=table.version, closed_by=seat.index)
            )
            return table
        if table.status != Table.Status.PLAYING:
            raise match_over()
        match = transitions.match_of(table)
        if seat.index in match.hand.out_seats:  # already left a hand that went on
            raise match_over()
        after = transitions.continue_match(abandon(match, seat.index))
        if after.is_over:  # else the hand goes on without the leaver (leavers_sit_out)
            table.outcome = Table.Outcome.ABANDONED
        transitions.save_transition(table, seats, match, after, now, chosen_actions=0)
        transitions.follow_up(table, seats, after)
    return table


def close_without_winner(table: Table, now: datetime, outcome: str) -> None:
    """End a table with no winner (R28, moderators, a creator cancelling a waiting table).
    Its seats lose their invite links and move to the "over" group of their players'
    lists, listed by ``now`` (as ``transitions.list_rows`` would place them), in one UPDATE."""
    if table.state is not None:
        table.state = match_to_dict(close_idle(match_from_dict(table.state)))
    table.status = Table.Status.CLOSED
    table.outcome = outcome
    table.winners = []
    table.finished_at = now
    table.turn_seat = table.turn_started_at = table.deadline = table.remind_at = None
    table.version += 1
    table.save()
    outbox.publish_version(table.pk, table.version)
    Seat.objects.filter(table=table).update(
        invite_token=None,
        list_group=seating.list_group(table.status, None, ()),
        list_moved_at=transitions.list_time(table),
    )


def table_forfeit_overdue(
    *, table_id: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """The absence rule (R27) for one table: if its human seat's deadline (the turn's start
    plus the table's ``move_seconds``) has passed, that seat abandons (R26). Returns True
    when it did, False when the table was not due (another worker, a move or an earlier
    sweep got there first).

    ``skip_locked=True`` (the sweep) skips a table whose row is locked right now rather than
    waiting for it: whoever holds the lock applies the same rule. Readers leave it False so
    that they wait and then see the result.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table = transitions.lock(table_id, skip_locked=skip_locked)
        if table is None:  # another worker holds it and applies the same rule
            return False
        return expire_if_overdue(table, transitions.table_seats(table), now)


def table_close_idle(
    *, table_id: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """The idle rule (R28): a table with no move for ``IDLE_SECONDS`` (from creation while
    no move was made, e.g. seats never filled) ends with no winner (status ``closed``,
    outcome ``idle``) and its players are told. Returns False when it was not due.

    A human whose turn ran out earlier lost by absence first (R27 comes due after the
    table's move time, 1 to 7 days; R28 after 7 days): such a table is forfeited, not
    closed, and False is returned.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table = transitions.lock(table_id, skip_locked=skip_locked)
        if table is None:  # another worker holds it and applies the same rule
            return False
        idle_since = now - timedelta(seconds=settings.IDLE_SECONDS)
        if table.status not in transitions.ACTIVE or table.last_move_at >= idle_since:
            return False
        if expire_if_overdue(table, transitions.table_seats(table), now):
            return False
        close_without_winner(table, now, Table.Outcome.IDLE)
        outbox.record(MatchEnded(table_id=table_id, version=table.version))
    return True


def table_close_by_moderator(*, table_id: int) -> bool:
    """Close a table without a winner (the admin action). False when already ended."""
    with transaction.atomic():
        table = transitions.lock(table_id)
        if table.status not in transitions.ACTIVE:
            return False
        close_without_winner(table, timezone.now(), Table.Outcome.MODERATOR)
        outbox.record(MatchEnded(table_id=table_id, version=table.version))
    return True
