"""Every write to a table goes through here.

Each public function is keyword-only, runs in one transaction, locks the table row
(``select_for_update``) before reading its state, asks the engine (``dominoes``), appends
the Move rows and saves the new snapshot with ``version + 1``. Side effects (the bot's
turn, e-mails) are scheduled with ``transaction.on_commit`` so they never see, or act on,
a write that rolled back. Views and tasks call these functions and nothing else writes.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from dominoes import (
    IllegalMove,
    MatchOutcome,
    MatchState,
    Play,
    abandon,
    advance,
    close_idle,
    match_from_dict,
    match_to_dict,
    new_match,
    new_seed,
    parse_tile,
    play_turn,
    seed_sha256,
    start_hand,
    view_for,
)
from dominoes.bots import choose_play
from dominoes.engine import legal_moves, may_act, optional_actions
from dominoes.errors import UnreadableRecord
from dominoes.rules import CLASSIC, PROFILES
from dominoes.state import Draw, HandState
from dominoes.tiles import Tile
from tables.errors import TableError, not_found, refused_move
from tables.models import BOT_CHOICES, Hand, Move, Seat, Table

logger = logging.getLogger(__name__)

FRIEND = "friend"
#: Profiles the engine plays but the service cannot seat (none today).
SERVICE_UNSUPPORTED_PROFILES: frozenset[str] = frozenset()
#: Profiles in which one person plays both hands of a pair, seats ``i`` and ``i + 2``
#: (``seven_plus_seven``, docs/profiles.md): the creator holds 0 and 2, the rival pair's
#: 1 and 3 are one friend (one invite link) or a bot at each seat.
TWO_HAND_PROFILES = frozenset({"seven_plus_seven"})
BOT_NAMES = tuple(name for name, _label in BOT_CHOICES)
ACTIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def new_invite_token() -> str:
    """An invite token: 192 random bits from the CSPRNG, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


_INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_invite_token(token: str) -> None:
    """Refuse (404 ``invite_not_found``) a string that cannot be an invite token, before
    it reaches the database (a NUL byte would make PostgreSQL fail the query)."""
    if not isinstance(token, str) or not _INVITE_TOKEN.fullmatch(token):
        raise invite_not_found()


def invite_not_found() -> TableError:
    """The refusal for an unknown, used or revoked invite."""
    return TableError(
        "invite_not_found", _("Esta invitación no existe o ya no es válida."), status_code=404
    )


# --- reading the state ------------------------------------------------------------------


def match_of(table: Table) -> MatchState:
    """The engine state of a started table (from its snapshot)."""
    if table.state is None:
        raise TableError(
            "table_not_started", _("La partida aún no ha empezado."), status_code=409, rule="R30"
        )
    return match_from_dict(table.state)


def _lock(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """Lock the table row for this transaction. Raises ``not_found`` for a missing table;
    with ``skip_locked`` returns ``None`` instead of waiting when another holds the lock."""
    rows = Table.objects.select_for_update(skip_locked=skip_locked).filter(pk=table_id)
    table = rows.first()
    if table is None and not skip_locked:
        raise not_found()
    return table


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("index"))


def _seats_of(seats: list[Seat], user) -> list[Seat]:
    """``user``'s seats at the table, by index (two in a two-hand profile); raises
    ``not_found`` (404) when there are none."""
    mine = [seat for seat in seats if user is not None and seat.user_id == user.pk]
    if not mine:
        raise not_found()
    return mine


def holds_two_hands(rules: str) -> bool:
    """True when one person holds both seats of a pair under profile ``rules``
    (``TWO_HAND_PROFILES``: ``seven_plus_seven``)."""
    return rules in TWO_HAND_PROFILES


def hand_seats(rules: str, seats: int, index: int) -> list[int]:
    """The seats the person at seat ``index`` holds (R2 partners sit opposite): both seats
    of the pair in a two-hand profile, else ``[index]``."""
    if holds_two_hands(rules) and seats == 4:
        return sorted({index % 2, index % 2 + 2})
    return [index]


# --- saving engine transitions ------------------------------------------------------------


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


def _save_transition(
    table: Table,
    seats: list[Seat],
    before: MatchState | None,
    after: MatchState,
    now: datetime,
    *,
    chosen_actions: int,
) -> None:
    """Persist ``after``: new Hand rows, new Move rows, hand results, seat scores, the
    snapshot, ``version + 1`` and the turn's deadline (R27). The first ``chosen_actions``
    new actions were chosen by a player; the rest are automatic (R16).

    Runs a constant number of queries, whatever the length of the move log.
    """
    first_hand = before.hand.number if before is not None else 0
    rows = {hand.number: hand for hand in Hand.objects.filter(table=table, number__gte=first_hand)}
    new_moves: list[Move] = []
    ended: list[Hand] = []
    for hand in after.hands[first_hand:]:
        row = rows.get(hand.number)
        if row is None:
            row = _hand_row(table, hand, now)
            row.save()
        known = 0
        if before is not None and hand.number < len(before.hands):
            known = len(before.hands[hand.number].actions)
        for sequence in range(known, len(hand.actions)):
            action = hand.actions[sequence]
            kind = (
                "play"
                if isinstance(action, Play)
                else "draw"
                if isinstance(action, Draw)
                else "pass"
            )
            new_moves.append(
                Move(
                    table=table,
                    hand=row,
                    sequence=sequence,
                    seat=action.seat,
                    kind=kind,
                    tile=str(action.tile) if kind != "pass" else "",
                    end=action.end if kind == "play" else None,
                    automatic=chosen_actions <= 0,
                    created_at=now,
                )
            )
            chosen_actions -= 1
        if hand.result is not None and row.ended_at is None:
            row.ended_at = now
            row.end = hand.result.end.value
            row.winners = list(hand.result.winners)
            row.points = hand.result.points
            row.counts = list(hand.result.counts)
            ended.append(row)
    Move.objects.bulk_create(new_moves)
    if ended:
        Hand.objects.bulk_update(ended, ["ended_at", "end", "winners", "points", "counts"])
    if before is None or before.scores != after.scores:
        for seat in seats:
            seat.score = after.scores[seat.index]
        Seat.objects.bulk_update(seats, ["score"])
    if new_moves:
        table.last_move_at = now
    table.state = match_to_dict(after)
    table.version += 1
    _set_turn(table, seats, after, now)
    if after.is_over:
        table.status = Table.Status.FINISHED
        table.finished_at = now
        table.winners = list(after.winners or ())
        table.outcome = table.outcome or Table.Outcome.TARGET
    table.save()


def _set_turn(table: Table, seats: list[Seat], match: MatchState, now: datetime) -> None:
    """Whose turn it is, since when, and the absence deadline (R27): humans only."""
    if match.is_over or match.hand.is_over:
        table.turn_seat = table.turn_started_at = table.deadline = None
        return
    turn = match.hand.turn
    table.turn_seat = turn
    table.turn_started_at = now
    human = not seats[turn].bot
    table.deadline = now + timedelta(seconds=settings.ABSENCE_SECONDS) if human else None


def _continue(match: MatchState) -> MatchState:
    """After an action: automatic draws and passes (R16); when a hand has ended and the
    match goes on, deal the next hand from a fresh seed (R6, R10)."""
    match = advance(match)
    while match.hand.is_over and not match.is_over:
        match = advance(start_hand(match, seed=new_seed()))
    return match


def _enqueue(task, *args, **options) -> None:
    """Send a task after the commit. A failure is logged, never raised: the write is
    already committed, so the player must not see an error for it (a broker outage raises
    kombu's ``OperationalError``, Redis's errors, or Celery's ``RuntimeError``). A lost bot
    turn is sent again by the next read of the table (``resume_stuck_bot``) or the
    stuck-bot sweep, once it has waited ``BOT_STUCK_SECONDS``; a lost e-mail task is not.
    With no broker (``make run``: tasks run inline) the task's own errors land here too,
    and are raised under test so that the tests see them."""
    try:
        task.apply_async(args, **options)
    except Exception:  # the write it follows stands, whatever went wrong here
        if task.app.conf.task_always_eager and getattr(settings, "TESTING", False):
            raise
        logger.exception("could not enqueue %s%r; the committed write stands", task.name, args)


def resume_stuck_bot(table: Table, now: datetime | None = None) -> bool:
    """Send a bot's turn again when it has waited ``BOT_STUCK_SECONDS`` (its task was
    lost: broker outage, worker crash), at most once per ``BOT_STUCK_SECONDS`` per table,
    whoever asks (reads of the table, the stuck-bot sweep). The resend is claimed with a
    conditional UPDATE of ``Table.bot_requeued_at`` at the table's version, so concurrent
    readers queue at most one task. ``bot_play`` ignores a stale version, so a task that
    was only slow is harmless. Returns True when this call sent it."""
    from tables import tasks

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
    _enqueue(tasks.bot_play, table.pk, table.version)
    return True


def _after_commit(table: Table, seats: list[Seat], match: MatchState, actor=None) -> None:
    """Schedule what follows a write, once it is committed: the bot's turn, the e-mails.

    No "your turn" e-mail goes to ``actor``, the person who just moved, when the turn is
    theirs again (their other hand in ``seven_plus_seven``): they are at the table."""
    from tables import tasks

    table_id, version = table.pk, table.version
    if match.is_over:
        transaction.on_commit(lambda: _enqueue(tasks.send_match_over_emails, table_id))
        return
    if match.hand.is_over:
        return
    if _acting_bot(seats, match) is not None:
        transaction.on_commit(
            lambda: _enqueue(
                tasks.bot_play, table_id, version, countdown=settings.BOT_DELAY_SECONDS
            )
        )
    elif actor is None or seats[match.hand.turn].user_id != actor.pk:
        transaction.on_commit(lambda: _enqueue(tasks.send_turn_email, table_id, version))


# --- creating and joining -------------------------------------------------------------------


def table_create(
    *,
    creator,
    seats: int,
    others: list[str],
    target: int | None = None,
    rules: str = CLASSIC.name,
) -> Table:
    """Create a table with ``creator`` at seat 0 (R29).

    ``rules``: a profile name (``dominoes.PROFILES``; ``"classic"`` is RULES.md).
    ``seats``: one of the profile's table sizes (2, 3 or 4 for classic). ``target``: one
    of its targets in points (50 or 100 for classic; ``None`` takes the profile's first,
    e.g. a single-hand profile). ``others``: one entry per other seat, in seat order from
    seat 1: ``"friend"`` (an invite link is made for it) or a bot name (``"garabato"``,
    ``"nino"``, ``"quelonia"``). With partnerships, ``others[1]`` is seat 2, the creator's
    partner (R2). When no friend is invited the match starts at once (R30). Raises
    ``TableError`` (``invalid_table``) for anything else.

    In a two-hand profile (``seven_plus_seven``) the creator holds seats 0 and 2 and
    ``others`` has one entry, for the rival pair (seats 1 and 3): ``"friend"`` (one link;
    whoever takes it holds both seats) or a bot name (that bot at each of the two seats).
    """
    profile = PROFILES.get(rules)
    if profile is None or profile.name in SERVICE_UNSUPPORTED_PROFILES:
        raise TableError(
            "invalid_table",
            _("Reglas desconocidas: %(rules)s.") % {"rules": rules},
            extra={"profiles": offered_profiles()},
        )
    if target is None:
        target = profile.targets[0]
    if seats not in profile.seat_counts:
        raise TableError(
            "invalid_table",
            _("Con estas reglas una mesa tiene %(counts)s asientos.")
            % {"counts": ", ".join(str(n) for n in profile.seat_counts)},
            rule="R2",
        )
    if target not in profile.targets:
        raise TableError(
            "invalid_table",
            _("Con estas reglas la meta es de %(targets)s puntos.")
            % {"targets": ", ".join(str(n) for n in profile.targets)},
            rule="R25",
        )
    two_hands = holds_two_hands(profile.name)
    if any(kind not in (FRIEND, *BOT_NAMES) for kind in others) or len(others) != (
        1 if two_hands else seats - 1
    ):
        raise TableError(
            "invalid_table",
            _("Indica la otra pareja: «friend» o un bot (garabato, nino, quelonia).")
            if two_hands
            else _("Indica, para cada otro asiento, «friend» o un bot (garabato, nino, quelonia)."),
            rule="R29",
        )
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(
            seats=seats, target=target, rules=profile.name, creator=creator, last_move_at=now
        )
        seat_rows = [
            Seat(table=table, index=0, user=creator, team=profile.team_of(0, seats), joined_at=now)
        ]
        if two_hands:  # seat 1 and 3: the rival pair; seat 2: the creator's second hand
            others = [others[0], None, others[0]]
        for index, kind in enumerate(others, start=1):
            if kind is None:
                seat_rows.append(
                    Seat(
                        table=table,
                        index=index,
                        user=creator,
                        second_hand=True,
                        team=profile.team_of(index, seats),
                        joined_at=now,
                    )
                )
                continue
            # The second seat of a friend's pair has no link: joining seat 1 takes it.
            link = kind == FRIEND and not (two_hands and index == 3)
            seat_rows.append(
                Seat(
                    table=table,
                    index=index,
                    team=profile.team_of(index, seats),
                    bot=kind if kind != FRIEND else "",
                    joined_at=now if kind != FRIEND else None,
                    invite_token=new_invite_token() if link else None,
                )
            )
        Seat.objects.bulk_create(seat_rows)
        if all(seat.bot or seat.user_id for seat in seat_rows):
            _start_match(table, _seats(table), now)
    return table


def offered_profiles() -> list[str]:
    """The rule profiles a table may be created with, ``"classic"`` first."""
    return [name for name in PROFILES if name not in SERVICE_UNSUPPORTED_PROFILES]


def _start_match(table: Table, seats: list[Seat], now: datetime) -> None:
    rules = PROFILES[table.rules]
    match = advance(new_match(table.seats, table.target, seed=new_seed(), rules=rules))
    table.status = Table.Status.PLAYING
    _save_transition(table, seats, None, match, now, chosen_actions=0)
    _after_commit(table, seats, match)


def seat_join(*, token: str, user) -> Seat:
    """Take the open seat an invite ``token`` belongs to (R30); the match starts when the
    last seat is taken. In a two-hand profile (``seven_plus_seven``) the link takes both
    seats of the rival pair (1 and 3); the seat returned is the one the link was for.

    The token is looked up, then checked again under the table lock: a link renewed
    (``invite_renew``) while this join waited is refused, never takes the seat.

    Raises ``TableError``: ``invite_not_found`` (404: unknown or revoked token),
    ``already_seated`` (409: the user holds another seat at that table), ``table_not_open``
    (409: the table is no longer waiting).
    """
    check_invite_token(token)
    now = timezone.now()
    with transaction.atomic():
        seat = (
            Seat.objects.filter(invite_token=token, user__isnull=True, bot="")
            .only("table_id")
            .first()
        )
        if seat is None:
            raise invite_not_found()
        table = _lock(seat.table_id)
        seats = _seats(table)
        seat = next(s for s in seats if s.pk == seat.pk)
        if table.status != Table.Status.WAITING or not seat.is_open:
            raise TableError(
                "table_not_open", _("Esta mesa ya no admite jugadores."), status_code=409
            )
        if seat.invite_token != token:  # renewed while this join waited for the lock
            raise invite_not_found()
        if any(s.user_id == user.pk for s in seats):
            raise TableError(
                "already_seated", _("Ya tienes un asiento en esta mesa."), status_code=409
            )
        seat.user = user
        seat.joined_at = now
        seat.invite_token = None
        seat.save(update_fields=["user", "joined_at", "invite_token"])
        for index in hand_seats(table.rules, table.seats, seat.index):
            second = seats[index]
            if second.pk != seat.pk:  # the pair's other hand (seven_plus_seven)
                if not second.is_open or second.invite_token:
                    raise TableError(
                        "table_not_open", _("Esta mesa ya no admite jugadores."), status_code=409
                    )
                second.user, second.joined_at, second.second_hand = user, now, True
                second.save(update_fields=["user", "joined_at", "second_hand"])
        if all(not s.is_open for s in seats):
            _start_match(table, seats, now)
        else:
            table.version += 1
            table.save(update_fields=["version"])
    return seat


def invite_renew(*, table_id: int, user, seat_index: int) -> Seat:
    """Replace an open seat's invite token, so the old link stops working (creator only).

    Raises ``TableError``: ``not_found`` (404) for anyone but the creator or a seat that
    is not open or has no link (``seven_plus_seven``'s seat 3 goes with seat 1's link),
    ``table_not_open`` (409) once the match has started.
    """
    with transaction.atomic():
        table = _lock(table_id)
        if table.creator_id != user.pk:
            raise not_found()
        if table.status != Table.Status.WAITING:
            raise TableError(
                "table_not_open", _("Esta mesa ya no admite jugadores."), status_code=409
            )
        seat = next(
            (
                s
                for s in _seats(table)
                if s.index == seat_index and s.is_open and s.invite_token is not None
            ),
            None,
        )
        if seat is None:
            raise not_found()
        seat.invite_token = new_invite_token()
        seat.save(update_fields=["invite_token"])
        table.version += 1
        table.save(update_fields=["version"])
    return seat


# --- playing ------------------------------------------------------------------------------


def _expire_if_overdue(table: Table, seats: list[Seat], now: datetime) -> bool:
    """Apply the absence rule (R27) to a locked table whose deadline has passed: the human
    seat to act abandons (R26, through ``dominoes.abandon``, as ``table_abandon`` does) and
    the table ends with outcome ``absent``. Returns True when it did.

    The deadline is exact: at ``deadline`` the turn is still playable, a moment later it is
    not, whoever gets here first (the sweep, a read, a move, an abandon).
    """
    if table.status != Table.Status.PLAYING or table.deadline is None or now <= table.deadline:
        return False
    match = match_of(table)
    if match.is_over or match.hand.is_over or seats[match.hand.turn].bot:
        return False  # nobody is on the clock (bots never time out, R27)
    after = _continue(abandon(match, match.hand.turn, MatchOutcome.ABANDONED))
    if after.is_over:  # else the hand goes on without the absent seat (leavers_sit_out)
        table.outcome = Table.Outcome.ABSENT
    _save_transition(table, seats, match, after, now, chosen_actions=0)
    _after_commit(table, seats, after)
    return True


def _lost_by_absence(table: Table, mine: list[Seat]) -> bool:
    """True when one of the seats ``mine`` already lost this table by absence (R27), e.g.
    to the sweep (holding two seats, either hand's absence loses the pair's match)."""
    if table.outcome != Table.Outcome.ABSENT or table.state is None:
        return False
    return match_of(table).abandoned_by in {seat.index for seat in mine}


def _turn_expired(table: Table, seats: list[Seat], mine: list[Seat]) -> TableError:
    """The ``turn_expired`` refusal (R27) as the reader sees it: who ran out of time and
    that the table is over, and whether the reader (``mine``: their seats) lost by it,
    won by it, or neither (e.g. a tie for the win at three seats)."""
    absent = match_of(table).abandoned_by
    hours = settings.ABSENCE_SECONDS // 3600
    name = seats[absent].display_name if absent is not None else ""
    winners = set(table.winners or [])
    indexes = {seat.index for seat in mine}
    if absent in indexes:
        detail = _(
            "Se acabó tu plazo de %(hours)d horas para jugar: perdiste la partida por ausencia "
            "y la mesa ha terminado."
        ) % {"hours": hours}
    elif indexes & winners:
        detail = _(
            "%(name)s agotó su plazo de %(hours)d horas para jugar: ganas la partida por su "
            "ausencia y la mesa ha terminado."
        ) % {"name": name, "hours": hours}
    elif absent is not None and seats[absent].team == mine[0].team:
        detail = _(
            "%(name)s, tu pareja, agotó su plazo de %(hours)d horas para jugar: vuestra pareja "
            "pierde la partida por ausencia y la mesa ha terminado."
        ) % {"name": name, "hours": hours}
    else:
        detail = _(
            "%(name)s agotó su plazo de %(hours)d horas para jugar y perdió por ausencia: la "
            "mesa ha terminado."
        ) % {"name": name, "hours": hours}
    return TableError(
        "turn_expired", detail, status_code=409, rule="R27", extra={"absent_seat": absent}
    )


def move_play(
    *,
    table_id: int,
    user,
    version: int,
    tile: str | None = None,
    end: int | None = None,
    action: str = "play",
    seat: int | None = None,
) -> Table:
    """Play ``tile`` (``"6-4"``) on the end showing pip ``end`` (``None`` for the lead or
    a tile that fits one way) for ``user``'s seat, then the automatic draws and passes
    (R16), the end of the hand and the next deal. ``action`` ``"draw"`` or ``"pass"`` is
    a seat's own choice where the profile makes drawing optional (``first_double``); the
    drawn tile is the stock's top, which the client never names.

    ``seat`` names the seat the move is for; it must be one of ``user``'s. Left out: the
    user's seat that may act now (``may_act``), else their first. It matters only to a
    user holding two seats (``seven_plus_seven``): a move for the hand that is not to
    act is refused as any move out of turn (``not_your_turn``, R3).

    ``version`` must be the table's current version. Raises ``TableError``: ``not_found``
    (404, not seated), ``table_not_started``/``stale_version``/``turn_expired``/
    ``hand_over``/``not_your_turn`` (409), an engine refusal code (400, RECORD.md),
    ``invalid`` (400, unknown tile) or ``not_your_seat`` (400, ``seat`` is not the
    user's). A refused move changes nothing, except that an overdue turn is forfeited
    (R27) before ``turn_expired`` is raised.
    """
    now = timezone.now()
    with transaction.atomic():
        table = _lock(table_id)
        seats = _seats(table)
        mine = _seats_of(seats, user)
        overdue_seat = table.turn_seat
        expired = _expire_if_overdue(table, seats, now) or _lost_by_absence(table, mine)
        # Another seat's absence under leavers_sit_out: the match went on without it.
        moved_on = expired and table.status == Table.Status.PLAYING
        moved_on = moved_on and overdue_seat not in {s.index for s in mine}
        if not expired:
            parsed = _parse_tile(table, tile)  # a malformed tile is a 400 before any 409
            if seat is not None and seat not in {s.index for s in mine}:
                raise TableError(
                    "not_your_seat",
                    _("No juegas en ese asiento."),
                    extra={"fields": {"seat": [_("No juegas en ese asiento.")]}},
                )
            _check_playable(table, version)
            match = match_of(table)
            index = seat if seat is not None else acting_seat(match, [s.index for s in mine])
            try:
                chosen = _chosen_action(match, index, action, parsed, end)
                after = _continue(play_turn(match, chosen))
            except IllegalMove as error:
                detail = _other_hand_detail(match, error, index, mine, parsed)
                raise refused_move(error, detail) from None
            _save_transition(table, seats, match, after, now, chosen_actions=1)
            _after_commit(table, seats, after, actor=user)
            return table
    if moved_on:
        _check_playable(table, version)  # stale_version: the table changed under the move
    raise _turn_expired(table, seats, mine)


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


def acting_seat(match: MatchState, mine: list[int]) -> int:
    """Of the seats ``mine`` (one person's, ascending), the one that may act now
    (``dominoes.engine.may_act``), else the first: the hand a two-seat holder plays."""
    return next((index for index in mine if may_act(match, index)), mine[0])


def _parse_tile(table: Table, tile: str | None) -> Tile | None:
    """The tile named in a request, in the table's set; ``TableError`` ``invalid`` (400)
    for a name that is no tile of it (``"7-7"`` in double-six)."""
    if tile is None:
        return None
    try:
        return parse_tile(tile, PROFILES[table.rules].max_pip)
    except UnreadableRecord as error:
        raise TableError(
            "invalid", _("Esa ficha no existe en este juego."), extra={"reason": str(error)}
        ) from None


def _chosen_action(match: MatchState, seat: int, action: str, tile: Tile | None, end):
    """The engine action a player asked for; raises ``TableError`` or ``IllegalMove``."""
    if action == "play":
        if tile is None:
            raise TableError("invalid", _("Indica la ficha que juegas."))
        return Play(seat, tile, end)
    options = {type(option).__name__.lower(): option for option in optional_actions(match)}
    if not match.rules.draw_optional or action not in ("draw", "pass"):
        raise TableError(
            "invalid", _("Aquí solo se juegan fichas: robar y pasar son automáticos."), rule="R16"
        )
    if not may_act(match, seat):
        raise IllegalMove(
            "not_your_turn", f"it is seat {match.hand.turn}'s turn, not seat {seat}'s"
        )
    if action not in options:
        if legal_moves(match, seat):
            code = "cannot_draw_with_play" if action == "draw" else "cannot_pass_with_play"
            raise IllegalMove(code, f"seat {seat} holds a tile that fits")
        raise IllegalMove("wrong_draw", "the stock is empty")
    return options[action]


def _check_playable(table: Table, version: int | None) -> None:
    if table.status == Table.Status.WAITING:
        raise TableError(
            "table_not_started", _("La partida aún no ha empezado."), status_code=409, rule="R30"
        )
    if table.status != Table.Status.PLAYING:
        raise TableError("hand_over", _("La partida ha terminado."), status_code=409, rule="R25")
    if version != table.version:
        raise TableError(
            "stale_version",
            _("La mesa ha cambiado; vuelve a cargarla."),
            status_code=409,
            extra={"version": table.version},
        )


def _acting_bot(seats: list[Seat], match: MatchState) -> Seat | None:
    """The bot seat that may act now (the seat to act, or a bot among the seats that may
    lead, for profiles where either partner leads), else ``None``."""
    for seat in seats:
        if seat.bot and may_act(match, seat.index):
            return seat
    return None


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
    seats = _seats(table)
    match = match_of(table)
    seat = _acting_bot(seats, match)
    if seat is None:
        return False
    view = view_for(match, seat.index)
    if view.legal_moves:
        play = choose_play(seat.bot, view, seed=bot_seed(table))
    else:  # an optional draw or pass (draw_optional profiles): a bot always draws
        play = optional_actions(match)[0]
    now = timezone.now()
    with transaction.atomic():
        table = _lock(table_id)
        if table.version != version or table.status != Table.Status.PLAYING:
            return False
        after = _continue(play_turn(match, play))
        _save_transition(table, seats, match, after, now, chosen_actions=1)
        _after_commit(table, seats, after)
    return True


# --- ending matches early -------------------------------------------------------------------


def table_abandon(*, table_id: int, user) -> Table:
    """``user`` leaves the match and loses it (R26). A table still waiting for players is
    closed with no winner. Holding both seats of a pair (``seven_plus_seven``) the pair
    abandons: the other pair wins (R26 with partners). Raises ``TableError``:
    ``not_found`` (404, not seated), ``hand_over`` (409, already over)."""
    now = timezone.now()
    with transaction.atomic():
        table = _lock(table_id)
        seats = _seats(table)
        seat = _seats_of(seats, user)[0]
        if _expire_if_overdue(table, seats, now):
            return table
        if table.status == Table.Status.WAITING:
            _close(table, now, Table.Outcome.ABANDONED)
            return table
        if table.status != Table.Status.PLAYING:
            raise TableError(
                "hand_over", _("La partida ha terminado."), status_code=409, rule="R25"
            )
        match = match_of(table)
        if seat.index in match.hand.out_seats:  # already left a hand that went on
            raise TableError(
                "hand_over", _("La partida ha terminado."), status_code=409, rule="R25"
            )
        after = _continue(abandon(match, seat.index))
        if after.is_over:  # else the hand goes on without the leaver (leavers_sit_out)
            table.outcome = Table.Outcome.ABANDONED
        _save_transition(table, seats, match, after, now, chosen_actions=0)
        _after_commit(table, seats, after)
    return table


def _close(table: Table, now: datetime, outcome: str) -> None:
    """End a table with no winner (R28, moderators, a creator leaving a waiting table)."""
    if table.state is not None:
        table.state = match_to_dict(close_idle(match_from_dict(table.state)))
    table.status = Table.Status.CLOSED
    table.outcome = outcome
    table.winners = []
    table.finished_at = now
    table.turn_seat = table.turn_started_at = table.deadline = None
    table.version += 1
    table.save()
    Seat.objects.filter(table=table, invite_token__isnull=False).update(invite_token=None)


def table_forfeit_overdue(
    *, table_id: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """The absence rule (R27) for one table: if its human seat's 48 hours have passed, that
    seat abandons (R26). Returns True when it did, False when the table was not due (another
    worker, a move or an earlier sweep got there first).

    ``skip_locked=True`` (the sweep) skips a table whose row is locked right now rather than
    waiting for it: whoever holds the lock applies the same rule. Readers leave it False so
    that they wait and then see the result.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table = _lock(table_id, skip_locked=skip_locked)
        if table is None:  # another worker holds it and applies the same rule
            return False
        return _expire_if_overdue(table, _seats(table), now)


def table_close_idle(
    *, table_id: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """The idle rule (R28): a table with no move for ``IDLE_SECONDS`` (from creation while
    no move was made, e.g. seats never filled) ends with no winner (status ``closed``,
    outcome ``idle``) and its players are told. Returns False when it was not due.

    A human whose turn ran out earlier lost by absence first (R27 comes due after 48 hours,
    R28 only after 7 days): such a table is forfeited, not closed, and False is returned.
    """
    from tables import tasks

    now = now or timezone.now()
    with transaction.atomic():
        table = _lock(table_id, skip_locked=skip_locked)
        if table is None:  # another worker holds it and applies the same rule
            return False
        idle_since = now - timedelta(seconds=settings.IDLE_SECONDS)
        if table.status not in ACTIVE or table.last_move_at >= idle_since:
            return False
        if _expire_if_overdue(table, _seats(table), now):
            return False
        _close(table, now, Table.Outcome.IDLE)
        transaction.on_commit(lambda: _enqueue(tasks.send_match_over_emails, table_id))
    return True


def table_close_by_moderator(*, table_id: int) -> bool:
    """Close a table without a winner (the admin action). False when already ended."""
    from tables import tasks

    with transaction.atomic():
        table = _lock(table_id)
        if table.status not in ACTIVE:
            return False
        _close(table, timezone.now(), Table.Outcome.MODERATOR)
        transaction.on_commit(lambda: _enqueue(tasks.send_match_over_emails, table_id))
    return True
