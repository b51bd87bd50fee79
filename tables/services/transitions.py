"""The transition core: lock a table, read its engine state, save an engine transition
(Hand and Move rows, scores, snapshot, ``version + 1``), set the turn and its deadline
(R27), and queue what follows a write (``outbox``). Every verb is built on these.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from dominoes import (
    MatchState,
    Play,
    advance,
    match_to_dict,
    new_seed,
    seed_sha256,
    start_hand,
)
from dominoes.engine import may_act
from dominoes.state import Action, Draw, HandState
from tables import seating, selectors
from tables.errors import not_found, table_not_started
from tables.events import HandEnded, MatchEnded, TurnStarted
from tables.models import Hand, Move, Seat, Table
from tables.services import outbox, statements
from tables.services.locking import (  # noqa: F401  (the verbs call them through transitions)
    Locked,
    lock,
    lock_for_move,
    table_seats,
)

#: How many hands the snapshot keeps: the current one and the one before (``last_hand``).
SNAPSHOT_HANDS = 2

#: The statuses of a table that is not over.
ACTIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def match_of(table: Table) -> MatchState:
    """The engine state of a started table (from its snapshot, parsed once per Table
    object: ``selectors.match_state``); ``TableError`` ``table_not_started`` (409, R30)
    before the match starts."""
    if table.state is None:
        raise table_not_started()
    return selectors.match_state(table)


def seats_of_user(seats: list[Seat], user) -> list[Seat]:
    """``user``'s seats at the table, by index (two in a two-hand profile); raises
    ``not_found`` (404) when there are none."""
    mine = [seat for seat in seats if user is not None and seat.user_id == user.pk]
    if not mine:
        raise not_found()
    return mine


def continue_match(match: MatchState) -> MatchState:
    """After an action: automatic draws and passes (R16); when a hand has ended and the
    match goes on, deal the next hand from a fresh seed (R6, R10)."""
    match = advance(match)
    while match.hand.is_over and not match.is_over:
        match = advance(start_hand(match, seed=new_seed()))
    return match


def lead_chooser(seats: list[Seat], match: MatchState) -> int | None:
    """The person who chooses who leads for their pair, else ``None``: before a lead
    either partner may take (``HandState.lead_seats``, ``later_lead == "winner_team"``)
    when one partner is a person and the other a bot. The bot never leads of itself then,
    whichever of the two the hand's turn names: the person leads, or lets the bot lead
    (``tables.services.play``: a ``pass`` before the lead). Their move time runs (R27)."""
    hand = match.hand
    if match.is_over or hand.is_over or hand.ends is not None or len(hand.lead_seats) < 2:
        return None
    people = [index for index in hand.lead_seats if not seats[index].bot]
    return people[0] if len(people) == 1 else None


def clock_seat(seats: list[Seat], match: MatchState) -> int:
    """The seat the table waits for (``Table.turn_seat``, its move time and notices): the
    person choosing the pair's leader (``lead_chooser``), else the hand's turn."""
    chooser = lead_chooser(seats, match)
    return match.hand.turn if chooser is None else chooser


def acting_bot(seats: list[Seat], match: MatchState) -> Seat | None:
    """The bot seat that may act now, else ``None``: the seat to act, or a bot among the
    seats that may lead (profiles where either partner leads, ``later_lead ==
    "winner_team"``) when its partner is a bot too. A bot whose partner is a person waits
    for that person to choose who leads (``lead_chooser``), even when the hand's turn is
    the bot's: it took the lead a second after the hand began, before the person could
    choose."""
    if lead_chooser(seats, match) is not None:
        return None
    for seat in seats:
        if seat.bot and may_act(match, seat.index):
            return seat
    return None


# --- saving engine transitions ------------------------------------------------------------


def save_transition(
    table: Table,
    seats: list[Seat],
    before: MatchState | None,
    after: MatchState,
    now: datetime,
    *,
    chosen_actions: int,
    seen_by=None,
) -> None:
    """Persist ``after``: new Hand rows, new Move rows, hand results, seat scores (and
    each seat's place in its player's list, ``seats_update``), the snapshot,
    ``version + 1`` and the turn's deadline (R27). The first ``chosen_actions`` new
    actions were chosen by a player; the rest are automatic (R16). The table's UPDATE,
    the Move rows' INSERT and the seats' UPDATE go in one round trip
    (``tables.services.statements``).

    ``seen_by``: the user who made the move and is answered with the new version: their
    seats' seen version (``services.table_seen``) is saved in that round trip too. The
    seats in memory keep the version they had seen, which the answer's
    ``since_your_last_visit`` starts from; ``table.seen_saved_for`` tells
    ``table_seen`` that the write is done.

    The snapshot keeps the current hand and the one before it (``SNAPSHOT_HANDS``: the
    view's ``last_hand``) and the scores: its size does not grow with the match; finished
    hands live in their Hand and Move rows. Runs a constant number of queries, whatever
    the length of the move log, and leaves on ``table`` what the answer needs without
    reading it back: the parsed state (``selectors.match_state``) and the new Move rows
    (``table.written_moves``: the version before and the rows).
    """
    new_moves, ended, left = _new_rows(table, before, after, now, chosen_actions)
    _save_hands(table, after, ended, left)
    scored = before is None or before.scores != after.scores
    if scored:
        for seat in seats:
            seat.score = after.scores[seat.index]
    if new_moves:
        table.last_move_at = now
    kept = replace(after, hands=after.hands[-SNAPSHOT_HANDS:])
    table.state = match_to_dict(kept)
    selectors.remember_match(table, kept)
    table.written_moves = (table.version, new_moves)
    table.version += 1
    set_turn(table, seats, after, now)
    if after.is_over:
        table.status = Table.Status.FINISHED
        table.finished_at = now
        table.winners = list(after.winners or ())
        table.outcome = table.outcome or Table.Outcome.TARGET
    seats_written = seats_update(table, seats, ["score"] if scored else [])
    _save_table(table, new_moves, seats_written, seen_by)
    outbox.publish_version(table.pk, table.version)


def _save_hands(table: Table, after: MatchState, ended: list[Hand], left: list[Hand]) -> None:
    """Save the Hand rows that ended (their result and departures) and those a seat left
    while they go on (``left``: their ``departures`` alone, written as the seat leaves, so
    that the log replays to the snapshot at every moment: ``records.match_from_log``).
    Each ended hand's notice is queued, but when the match ended with it (the match's
    notice says it all)."""
    if left:
        Hand.objects.bulk_update(left, ["departures"])
    if ended:
        Hand.objects.bulk_update(
            ended, ["ended_at", "end", "winners", "points", "counts", "departures"]
        )
    for hand in ended if not after.is_over else ():  # at the version this write saves
        outbox.record(HandEnded(table_id=table.pk, version=table.version + 1, number=hand.number))


def _save_table(
    table: Table,
    new_moves: list[Move],
    seats_written: statements.Statement | None,
    seen_by,
) -> None:
    """The table's UPDATE, with the INSERT of ``new_moves``, the seats' UPDATE
    ``seats_written`` and, for ``seen_by`` (a user), their seats' seen version, in one
    round trip (``tables.services.statements``)."""
    written = [statements.update(table)]
    if new_moves:
        written.append(statements.moves_insert(new_moves))
    if seats_written is not None:
        written.append(seats_written)
    if seen_by is not None:
        written.append(statements.seen_update(table.pk, seen_by.pk, table.version))
    statements.send(*written)
    if seen_by is not None:
        table.seen_saved_for = seen_by.pk


# --- "my tables": each seat's place in its player's list ----------------------------------

#: The Seat columns that place a table in its player's "my tables" list (``list_rows``).
LIST_FIELDS = ["list_group", "list_moved_at"]


def list_time(table: Table) -> datetime:
    """The time a table is listed by in its group of "my tables": its ``last_move_at``
    while it waits or plays, its ``finished_at`` once over (a match lost by absence, R27,
    or closed as idle, R28, ends days after its last move, and is listed as it ended)."""
    if table.status not in ACTIVE and table.finished_at is not None:
        return table.finished_at
    return table.last_move_at


def list_rows(table: Table, seats: list[Seat]) -> list[Seat]:
    """Set on each of ``seats`` (every seat of ``table``, saved or not, with the table's
    status, turn, ``last_move_at`` and ``finished_at`` as this write leaves them) its
    place in its player's "my tables" list (``tables.listing``): ``list_group``
    (``seating.list_group`` over all the seats the same person holds: either hand's turn
    in ``seven_plus_seven`` is theirs) and ``list_moved_at`` (``list_time``). Writes
    nothing; returns the seats whose values changed."""
    changed = []
    moved = list_time(table)
    for seat in seats:
        holder = seat.user_id
        mine = [s.index for s in seats if holder is not None and s.user_id == holder]
        group = seating.list_group(table.status, table.turn_seat, mine or [seat.index])
        if seat.list_group != group or seat.list_moved_at != moved:
            seat.list_group, seat.list_moved_at = group, moved
            changed.append(seat)
    return changed


def seats_update(table: Table, seats: list[Seat], fields: list[str]) -> statements.Statement | None:
    """The UPDATE (``statements.seats_update``) of ``fields`` of every one of ``seats``
    (the table's, locked) together with their list places (``list_rows``, set on the
    seats in memory here), or ``None`` when nothing changed: ``save_transition`` sends it
    with the table's UPDATE. Every write that changes a table's status, turn or
    ``last_move_at`` goes through it, or writes the list columns itself
    (``endings.close_without_winner``, ``lobby``, ``rematch``)."""
    changed = list_rows(table, seats)
    if fields:
        return statements.seats_update(seats, [*fields, *LIST_FIELDS])
    if changed:
        return statements.seats_update(changed, LIST_FIELDS)
    return None


def save_next_version(table: Table) -> None:
    """A change that is no move (a seat taken, a link renewed, a rematch accepted):
    ``version + 1``, saved alone, and published once the write commits (the long polls
    waiting on the table wake: ``outbox.publish_version``)."""
    table.version += 1
    table.save(update_fields=["version"])
    outbox.publish_version(table.pk, table.version)


def _new_rows(
    table: Table,
    before: MatchState | None,
    after: MatchState,
    now: datetime,
    chosen_actions: int,
) -> tuple[list[Move], list[Hand], list[Hand]]:
    """The Move rows of the actions ``after`` adds to ``before`` (new Hand rows are
    saved here, the moves need their keys), the Hand rows that ended, and those still
    going on that a seat left in this write (their ``departures`` set). Hands are told
    apart by ``number``: a snapshot holds only the last ones."""
    first_hand = before.hand.number if before is not None else 0
    rows = _hand_rows(table, before, first_hand)
    known_actions = {hand.number: len(hand.actions) for hand in before.hands} if before else {}
    known_departures = {hand.number: hand.departures for hand in before.hands} if before else {}
    new_moves: list[Move] = []
    ended: list[Hand] = []
    left: list[Hand] = []
    for hand in (hand for hand in after.hands if hand.number >= first_hand):
        row = rows.get(hand.number)
        if row is None:
            row = _hand_row(table, hand, now)
            row.save()
        for sequence in range(known_actions.get(hand.number, 0), len(hand.actions)):
            automatic = chosen_actions <= 0
            action = hand.actions[sequence]
            new_moves.append(_move_row(table, row, sequence, action, automatic, now))
            new_moves[-1].version = table.version + 1  # the version this write saves
            chosen_actions -= 1
        if hand.result is not None and row.ended_at is None:
            row.ended_at = now
            row.end = hand.result.end.value
            row.winners = list(hand.result.winners)
            row.points = hand.result.points
            row.counts = list(hand.result.counts)
            row.departures = [list(pair) for pair in hand.departures]
            ended.append(row)
        elif hand.departures != known_departures.get(hand.number, ()):
            row.departures = [list(pair) for pair in hand.departures]
            left.append(row)
    return new_moves, ended, left


def _hand_rows(table: Table, before: MatchState | None, first_hand: int) -> dict[int, Hand]:
    """The Hand rows from ``first_hand`` on, by number. The current hand's row id came
    with the lock (``lock``: ``current_hand_id``) when its hand is still being played:
    no query; else they are read."""
    current = getattr(table, "current_hand_id", None)
    if before is not None and current is not None and not before.hand.is_over:
        return {first_hand: Hand(pk=current, table=table, number=first_hand, ended_at=None)}
    return {hand.number: hand for hand in Hand.objects.filter(table=table, number__gte=first_hand)}


def _hand_row(table: Table, hand: HandState, now: datetime) -> Hand:
    return Hand(
        table=table,
        number=hand.number,
        seed=hand.seed.hex(),
        seed_sha256=seed_sha256(hand.seed),
        dealt=[[str(tile) for tile in tiles] for tiles in hand.dealt],
        stock=[str(tile) for tile in hand.stock],
        leader=hand.leader,
        started_at=now,
    )


def _move_row(
    table: Table, hand: Hand, sequence: int, action: Action, automatic: bool, now: datetime
) -> Move:
    kind = "play" if isinstance(action, Play) else "draw" if isinstance(action, Draw) else "pass"
    return Move(
        table=table,
        hand=hand,
        sequence=sequence,
        seat=action.seat,
        kind=kind,
        tile=str(action.tile) if kind != "pass" else "",
        end=action.end if kind == "play" else None,
        automatic=automatic,
        created_at=now,
    )


def set_turn(table: Table, seats: list[Seat], match: MatchState, now: datetime) -> None:
    """Whose turn it is (``clock_seat``), since when, the absence deadline (R27: humans
    only, the table's ``move_seconds`` after now) and when its reminder is due
    (``remind_at``: the deadline less ``Table.reminder_seconds``)."""
    table.deadline = table.remind_at = None
    if match.is_over or match.hand.is_over:
        table.turn_seat = table.turn_started_at = None
        return
    turn = clock_seat(seats, match)
    table.turn_seat = turn
    table.turn_started_at = now
    if not seats[turn].bot:
        table.deadline = now + timedelta(seconds=table.move_seconds)
        table.remind_at = table.deadline - timedelta(seconds=table.reminder_seconds)


def follow_up(table: Table, seats: list[Seat], match: MatchState, actor=None) -> None:
    """Queue what follows a write, sent once it is committed (``outbox``): the bot's turn,
    the players' notices (``notices.tasks``: the inbox, e-mails and pushes are fed from
    them).

    No "your turn" notice goes to ``actor``, the person who just moved, when the turn is
    theirs again (their other hand in ``seven_plus_seven``): they are at the table."""
    if match.is_over:
        outbox.record(MatchEnded(table_id=table.pk, version=table.version))
        return
    if match.hand.is_over:
        return
    turn = clock_seat(seats, match)
    outbox.record(
        TurnStarted(
            table_id=table.pk,
            version=table.version,
            seat=turn,
            bot=acting_bot(seats, match) is not None,
            same_player=actor is not None and seats[turn].user_id == actor.pk,
        )
    )
