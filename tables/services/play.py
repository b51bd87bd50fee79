"""A match in play: a player's move (R7-R16), a bot's turn (R31), and the turn's clock
(a lost bot turn sent again, the reminder claimed once per turn)."""

from __future__ import annotations

import hashlib
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core import metrics
from dominoes import IllegalMove, MatchState, Play, parse_tile, play_turn, view_for
from dominoes.bots import choose_play
from dominoes.engine import optional_actions
from dominoes.errors import UnreadableRecord
from dominoes.rules import PROFILES
from dominoes.state import Action, Draw, Pass
from dominoes.tiles import Tile
from tables.errors import (
    TableError,
    end_on_lead,
    fits_neither_end,
    match_over,
    no_choice_to_draw,
    not_your_seat,
    refused_move,
    stale_version,
    table_not_started,
    tile_required,
    turn_expired,
    unknown_tile,
)
from tables.events import BotTurnLost
from tables.models import Seat, Table
from tables.seating import acting_seat, check_seat_exists
from tables.services import lead_choice, outbox, transitions
from tables.services.endings import expire_if_overdue, lost_by_absence


def move_lock(*, table_id: int, user) -> transitions.Locked:
    """Lock table ``table_id`` for ``user``'s move in the caller's transaction and read it
    with its seats (``transitions.lock_for_move``), for ``move_play(locked=...)`` in the
    same transaction. Raises ``TableError`` ``not_found`` (404) for a missing table or one
    ``user`` holds no seat at, ``TransactionManagementError`` outside a transaction."""
    locked = transitions.lock_for_move(table_id, user)
    transitions.seats_of_user(locked.seats, user)
    return locked


def move_play(
    *,
    table_id: int,
    user,
    version: int,
    tile: str | None = None,
    end: int | None = None,
    action: str = "play",
    seat: int | None = None,
    locked: transitions.Locked | None = None,
) -> Table:
    """Play ``tile`` (``"6-4"``) on the end showing pip ``end`` (``None`` for the lead or
    a tile that fits one way) for ``user``'s seat, then the automatic draws and passes
    (R16), the end of the hand and the next deal. ``action`` ``"draw"`` or ``"pass"`` is
    a seat's own choice where the profile makes drawing optional (``first_double``); the
    drawn tile is the stock's top, which the client never names. ``"pass"`` before a
    lead the pair chooses, from the person whose partner is a bot, lets the bot lead
    (``lead_choice.partner_lead``): its lead is the move saved.

    ``seat`` names the seat the move is for; it must be one of ``user``'s. Left out: the
    user's seat that may act now (``may_act``), else their first. It matters only to a
    user holding two seats (``seven_plus_seven``): a move for the hand that is not to
    act is refused as any move out of turn (``not_your_turn``, R3).

    ``locked``: the table already locked and read, with its seats, by the caller's
    transaction (``move_lock``), which the move then runs in; else it runs in its own.
    With ``locked`` the ``turn_expired`` refusal is raised inside the caller's
    transaction, which must commit the forfeit (R27) it saved: ``tables.api.moves``
    catches it and stores its answer. The returned table has its seats attached and what
    the answer needs (``transitions.save_transition``), so the answer reads nothing back.

    ``version`` must be the table's current version. Raises ``TableError``: ``not_found``
    (404, not seated), ``table_not_started``/``stale_version``/``turn_expired``/
    ``hand_over``/``not_your_turn`` (409), an engine refusal code (400, RECORD.md),
    ``invalid`` (400, unknown tile; an ``end`` given with the lead, R11), ``no_such_seat``
    (400, a ``seat`` the table does not have) or ``not_your_seat`` (400, ``seat`` is not
    the user's). A refused move changes nothing, except that an overdue turn is forfeited
    (R27) before ``turn_expired`` is raised.
    """
    move = {"version": version, "tile": tile, "end": end, "action": action, "seat": seat}
    now = timezone.now()
    if locked is not None:
        table, expired = _move(locked, user, move, now)
    else:
        with transaction.atomic():
            locked = transitions.lock_for_move(table_id, user)
            table, expired = _move(locked, user, move, now)
    if expired is not None:  # raised once the forfeit (R27) is saved: it stays done
        raise expired
    return table


def _move(
    locked: transitions.Locked, user, move: dict, now: datetime
) -> tuple[Table, TableError | None]:
    """``move_play`` on the locked table: the table, and the ``turn_expired`` refusal
    to raise once the forfeit is saved, if the turn had run out."""
    table, seats = locked.table, locked.seats
    mine = transitions.seats_of_user(seats, user)
    overdue_seat = table.turn_seat
    expired = expire_if_overdue(table, seats, now) or lost_by_absence(table, mine)
    if expired:
        # Another seat's absence under leavers_sit_out: the match went on without it.
        moved_on = table.status == Table.Status.PLAYING
        if moved_on and overdue_seat not in {s.index for s in mine}:
            try:
                _check_playable(table, move["version"])  # stale: it changed under the move
            except TableError as error:
                return table, error
        return table, _turn_expired(table, seats, mine)
    parsed = _parse_tile(table, move["tile"])  # a malformed tile is a 400 before any 409
    seat = move["seat"]
    if seat is not None:
        check_seat_exists(seat, table.seats)
        if seat not in {s.index for s in mine}:
            raise not_your_seat()
    _check_playable(table, move["version"])
    match = transitions.match_of(table)
    index = seat if seat is not None else acting_seat(match, [s.index for s in mine])
    try:
        chosen = lead_choice.partner_lead(
            seats, match, index, move["action"], seed=bot_seed(table)
        ) or _chosen_action(match, index, move["action"], parsed, move["end"])
        played = play_turn(match, chosen)
    except IllegalMove as error:
        detail = _other_hand_detail(match, error, index, mine, parsed)
        if error.code == "tile_does_not_fit" and move["end"] is None and match.hand.ends:
            detail = fits_neither_end(*match.hand.ends)  # no end named: it fits neither
        raise refused_move(error, detail) from None
    if match.hand.ends is None and move["end"] is not None:
        raise end_on_lead()  # the engine ignores it; the player asked for something else
    after = transitions.continue_match(played)
    transitions.save_transition(table, seats, match, after, now, chosen_actions=1, seen_by=user)
    transitions.follow_up(table, seats, after, actor=user)
    return table, None


def _turn_expired(table: Table, seats: list[Seat], mine: list[Seat]) -> TableError:
    """The ``turn_expired`` refusal (R27) for the reader holding ``mine``: whether they
    lost by it, won by it, their partner ran out, or neither."""
    absent = transitions.match_of(table).abandoned_by
    indexes = {seat.index for seat in mine}
    if absent in indexes:
        side = "lost"
    elif indexes & set(table.winners or []):
        side = "won"
    elif absent is not None and seats[absent].team == mine[0].team:
        side = "partner"
    else:
        side = "other"
    name = seats[absent].display_name if absent is not None else ""
    return turn_expired(
        absent_seat=absent, absent_name=name, side=side, move_seconds=table.move_seconds
    )


def _other_hand_detail(
    match: MatchState, error: IllegalMove, index: int, mine: list[Seat], tile: Tile | None
) -> str | None:
    """For ``tile_not_in_hand`` when the tile is in the player's *other* hand
    (``seven_plus_seven``): a message that says so and names the hand to play."""
    if error.code != "tile_not_in_hand" or tile is None:
        return None
    for seat in mine:
        if seat.index != index and tile in match.hand.holdings[seat.index]:
            return _(
                "Esa ficha es de tu mano del asiento %(other)s; ahora juega la del asiento "
                "%(hand)s."
            ) % {"other": seat.index + 1, "hand": index + 1}
    return None


def _parse_tile(table: Table, tile: str | None) -> Tile | None:
    """The tile named in a request, in the table's set; ``TableError`` ``invalid`` (400)
    for a name that is no tile of it (``"7-7"`` in double-six)."""
    if tile is None:
        return None
    try:
        return parse_tile(tile, PROFILES[table.rules].max_pip)
    except UnreadableRecord as error:
        raise unknown_tile(str(error)) from None


def _chosen_action(
    match: MatchState, seat: int, action: str, tile: Tile | None, end: int | None
) -> Action:
    """The engine action a player asked for: a play, or where the profile makes drawing a
    choice (``draw_optional``) a draw or a pass. The engine judges it: ``play_turn``
    raises ``IllegalMove`` with its own code and rule (``not_your_turn``,
    ``cannot_draw_with_play``, ``wrong_draw``, ...). ``TableError`` ``invalid`` only for
    what is no action at all here: a play without a tile, a draw or pass in a profile
    where they are automatic (R16)."""
    if action == "play":
        if tile is None:
            raise tile_required()
        return Play(seat, tile, end)
    if not match.rules.draw_optional or action not in ("draw", "pass"):
        raise no_choice_to_draw()
    if action == "pass":
        return Pass(seat)
    hand = match.hand
    # The drawn tile is the stock's top, never named by the client. An empty stock has
    # none: the engine refuses that draw (wrong_draw) before it looks at the tile.
    return Draw(seat, hand.stock[hand.drawn] if hand.stock_left else None)


def _check_playable(table: Table, version: int | None) -> None:
    if table.status == Table.Status.WAITING:
        raise table_not_started()
    if table.status != Table.Status.PLAYING:
        raise match_over()
    if version != table.version:
        raise stale_version(table.version)


def bot_seed(table: Table) -> int:
    """A seed for a bot's choice, fixed by the table and its version (replays repeat it)."""
    digest = hashlib.sha256(f"{table.pk}:{table.version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_play(*, table_id: int, version: int) -> bool:
    """Play the bot's turn at ``table_id`` if the table is still at ``version`` and a bot
    is to act. Returns False (and changes nothing) when the table moved on, so a duplicated
    or retried task never plays twice. The bot sees only its seat's view (R31); it thinks
    outside the lock, and the move is applied only if nothing changed meanwhile.
    """
    table = Table.objects.filter(pk=table_id, version=version, status=Table.Status.PLAYING).first()
    if table is None:
        return False
    seats = transitions.table_seats(table)
    match = transitions.match_of(table)
    seat = transitions.acting_bot(seats, match)
    if seat is None:
        return False
    view = view_for(match, seat.index)
    thinking = time.perf_counter()
    if view.legal_moves:
        play = choose_play(seat.bot, view, seed=bot_seed(table))
    else:  # an optional draw or pass (draw_optional profiles): a bot always draws
        play = optional_actions(match)[0]
    metrics.BOT_MOVE_SECONDS.labels(seat.bot).observe(time.perf_counter() - thinking)
    now = timezone.now()
    with transaction.atomic():
        table = transitions.lock(table_id)
        if table.version != version or table.status != Table.Status.PLAYING:
            return False
        after = transitions.continue_match(play_turn(match, play))
        transitions.save_transition(table, seats, match, after, now, chosen_actions=1)
        transitions.follow_up(table, seats, after)
    metrics.count_moves(table.written_moves[1], bot=True)
    return True


# --- the turn's clock -----------------------------------------------------------------------


def resume_stuck_bot(table: Table, now: datetime | None = None) -> bool:
    """Send a bot's turn again when it has waited ``BOT_STUCK_SECONDS`` (its task was
    lost: broker outage, worker crash), at most once per ``BOT_STUCK_SECONDS`` per table,
    whoever asks (reads of the table, the stuck-bot sweep). The resend is claimed with a
    conditional UPDATE of ``Table.bot_requeued_at`` at the table's version, so concurrent
    readers queue at most one task. ``bot_play`` ignores a stale version, so a task that
    was only slow is harmless. Returns True when this call sent it."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.BOT_STUCK_SECONDS)
    if (
        table.status != Table.Status.PLAYING
        or table.deadline is not None
        or table.turn_seat is None
        or table.turn_started_at is None
        or table.turn_started_at >= since
    ):
        return False
    claimed = (
        Table.objects.filter(
            pk=table.pk, version=table.version, status=Table.Status.PLAYING, deadline=None
        )
        .filter(Q(bot_requeued_at__isnull=True) | Q(bot_requeued_at__lt=since))
        .update(bot_requeued_at=now)
    )
    if not claimed:
        return False
    outbox.record(BotTurnLost(table_id=table.pk, version=table.version))
    return True


def reminder_mark(*, table_id: int, version: int) -> None:
    """Mark the turn at ``version`` as reminded (R27: the mail sent when
    ``REMINDER_SECONDS`` are left), so later sweeps skip it; the mail itself is recorded
    per recipient (``EmailDelivery``), so a sweep that dies in between is safe to run
    again. Nothing happens when the table moved on."""
    Table.objects.filter(pk=table_id, version=version).update(reminded_version=version)
