"""A table before its match: create it (R29), take a seat by invite (R30), give it up
again, renew a link. The match starts, and its first hand is dealt, when the last seat is
taken."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from dominoes import advance, new_match, new_seed
from dominoes.rules import CLASSIC, PROFILES, Rules
from tables import guards
from tables.arrivals import arrived
from tables.errors import (
    already_seated,
    creator_only,
    invite_not_found,
    no_invite_to_renew,
    not_found,
    table_not_open,
    unknown_rules,
    wrong_move_time,
    wrong_others,
    wrong_seat_count,
    wrong_target,
)
from tables.events import SeatLeft, SeatTaken
from tables.models import Seat, Table
from tables.move_time import DAY, MOVE_DAYS, default_move_seconds
from tables.seating import (
    BOT_NAMES,
    FRIEND,
    check_invite_token,
    check_seat_exists,
    hand_seats,
    holds_two_hands,
    invite_sha256,
    new_invite_token,
    offered_profiles,
)
from tables.services import outbox, transitions


def table_create(
    *,
    creator,
    seats: int,
    others: list[str],
    target: int | None = None,
    rules: str = CLASSIC.name,
    move_days: int | None = None,
) -> Table:
    """Create a table with ``creator`` at seat 0 (R29).

    ``move_days``: the move time (R27), one of ``move_time.MOVE_DAYS`` (1, 2, 3 or 7
    days; ``None``: ``ABSENCE_SECONDS``, 2 days). It counts only where a friend is
    invited: a table against bots only keeps the default.

    ``rules``: a profile name (``dominoes.PROFILES``; ``"classic"`` is RULES.md).
    ``seats``: one of the profile's table sizes (2, 3 or 4 for classic). ``target``: one
    of its targets in points (50 or 100 for classic; ``None`` takes the profile's first,
    e.g. a single-hand profile). ``others``: one entry per other seat, in seat order from
    seat 1: ``"friend"`` (an invite link is made for it) or a bot name (``"garabato"``,
    ``"nino"``, ``"quelonia"``). With partnerships, ``others[1]`` is seat 2, the creator's
    partner (R2). When no friend is invited the match starts at once (R30). Raises
    ``TableError`` (``invalid_table``) for anything else (``move_days`` too), or a player
    guard's refusal (``tables.guards``: 403 ``suspended`` for a suspended player).

    In a two-hand profile (``seven_plus_seven``) the creator holds seats 0 and 2 and
    ``others`` has one entry, for the rival pair (seats 1 and 3): ``"friend"`` (one link;
    whoever takes it holds both seats) or a bot name (that bot at each of the two seats).
    """
    profile = _checked_profile(rules, seats, target, others)
    if move_days is not None and move_days not in MOVE_DAYS:
        raise wrong_move_time(MOVE_DAYS)
    friends = FRIEND in others
    move_seconds = move_days * DAY if move_days and friends else default_move_seconds()
    guards.check(creator, "create")
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(
            seats=seats,
            target=profile.targets[0] if target is None else target,
            rules=profile.name,
            creator=creator,
            last_move_at=now,
            move_seconds=move_seconds,
        )
        seat_rows = _seat_rows(table, profile, creator, others, now)
        transitions.list_rows(table, seat_rows)
        Seat.objects.bulk_create(seat_rows)
        arrived(user_id=creator.pk, table_id=table.pk)  # no notice while they are there
        if all(seat.bot or seat.user_id for seat in seat_rows):
            start_match(table, transitions.table_seats(table), now)
    return table


def _checked_profile(rules: str, seats: int, target: int | None, others: list[str]) -> Rules:
    """The profile a table is asked for, once the request fits it; ``TableError``
    ``invalid_table`` (R2, R25, R29) otherwise."""
    profile = PROFILES.get(rules)
    if profile is None:
        raise unknown_rules(rules, offered_profiles())
    if seats not in profile.seat_counts:
        raise wrong_seat_count(profile.seat_counts)
    if target is not None and target not in profile.targets:
        raise wrong_target(profile.targets, profile.single_hand)
    two_hands = holds_two_hands(profile.name)
    needed = 1 if two_hands else seats - 1
    if any(kind not in (FRIEND, *BOT_NAMES) for kind in others) or len(others) != needed:
        raise wrong_others(two_hands, needed, len(others))
    return profile


def _seat_rows(table: Table, profile: Rules, creator, others: list[str], now) -> list[Seat]:
    """The seats of a new table: the creator's, then a friend's (an invite link) or a
    bot's for each of ``others``; in a two-hand profile seat 2 is the creator's second
    hand and seats 1 and 3 the rival pair's (one link, or one bot at each)."""
    seats = table.seats
    rows = [Seat(table=table, index=0, user=creator, team=profile.team_of(0, seats), joined_at=now)]
    two_hands = holds_two_hands(profile.name)
    if two_hands:  # seat 1 and 3: the rival pair; seat 2: the creator's second hand
        others = [others[0], None, others[0]]
    for index, kind in enumerate(others, start=1):
        team = profile.team_of(index, seats)
        if kind is None:
            rows.append(
                Seat(
                    table=table,
                    index=index,
                    user=creator,
                    second_hand=True,
                    team=team,
                    joined_at=now,
                )
            )
            continue
        # The second seat of a friend's pair has no link: joining seat 1 takes it.
        link = kind == FRIEND and not (two_hands and index == 3)
        rows.append(
            Seat(
                table=table,
                index=index,
                team=team,
                bot=kind if kind != FRIEND else "",
                joined_at=now if kind != FRIEND else None,
                invite_token=new_invite_token() if link else None,
            )
        )
    return rows


def start_match(table: Table, seats: list[Seat], now: datetime) -> None:
    """Deal the first hand of ``table``'s match (every seat taken; the caller holds the
    lock) and hand the turn on (a bot's is queued)."""
    rules = PROFILES[table.rules]
    match = advance(new_match(table.seats, table.target, seed=new_seed(), rules=rules))
    table.status = Table.Status.PLAYING
    transitions.save_transition(table, seats, None, match, now, chosen_actions=0)
    transitions.follow_up(table, seats, match)


def seat_join(*, token: str, user) -> Seat:
    """Take the open seat an invite ``token`` belongs to (R30); the match starts when the
    last seat is taken. In a two-hand profile (``seven_plus_seven``) the link takes both
    seats of the rival pair (1 and 3); the seat returned is the one the link was for.

    The token is looked up, then checked again under the table lock: a link renewed
    (``invite_renew``) while this join waited is refused, never takes the seat. The
    person who took a seat with ``token`` may send it again (a link re-opened from a chat
    or an e-mail): they get that seat back and nothing changes.

    Raises ``TableError``: ``invite_not_found`` (404: unknown or revoked token),
    ``already_seated`` (409: the user holds another seat at that table), ``table_not_open``
    (409: the table is no longer waiting), a player guard's refusal (``tables.guards``:
    403 ``suspended``).
    """
    check_invite_token(token)
    guards.check(user, "join")
    now = timezone.now()
    with transaction.atomic():
        seat = (
            Seat.objects.filter(invite_token=token, user__isnull=True, bot="")
            .only("table_id")
            .first()
        )
        if seat is None:
            taken = Seat.objects.filter(
                joined_invite_sha256=invite_sha256(token), user=user, second_hand=False
            ).first()
            if taken is None:
                raise invite_not_found()
            return taken
        table = transitions.lock(seat.table_id)
        seats = transitions.table_seats(table)
        seat = next(s for s in seats if s.pk == seat.pk)
        if table.status != Table.Status.WAITING or not seat.is_open:
            raise table_not_open()
        if seat.invite_token != token:  # renewed while this join waited for the lock
            raise invite_not_found()
        if any(s.user_id == user.pk for s in seats):
            raise already_seated()
        arrived(user_id=user.pk, table_id=table.pk)  # no notice while they are there
        _take(table, seats, seat, user, token, now)
        if all(not s.is_open for s in seats):
            start_match(table, seats, now)
        else:
            transitions.save_next_version(table)
        outbox.record(SeatTaken(table_id=table.pk, version=table.version, user_id=user.pk))
    return seat


def _take(table: Table, seats: list[Seat], seat: Seat, user, token: str, now: datetime) -> None:
    """``user`` takes ``seat`` (open, its link ``token``) and, in a two-hand profile, the
    pair's other seat (``TableError`` ``table_not_open`` if that one is not open); each
    saved with its place in the new player's list (``transitions.list_rows``)."""
    seat.user = user
    seat.joined_at = now
    seat.invite_token = None
    seat.joined_invite_sha256 = invite_sha256(token)
    taken = {seat.pk: ["user", "joined_at", "invite_token", "joined_invite_sha256"]}
    for index in hand_seats(table.rules, table.seats, seat.index):
        second = seats[index]
        if second.pk != seat.pk:  # the pair's other hand (seven_plus_seven)
            if not second.is_open or second.invite_token:
                raise table_not_open()
            second.user, second.joined_at, second.second_hand = user, now, True
            taken[second.pk] = ["user", "joined_at", "second_hand"]
    transitions.list_rows(table, seats)  # the table joins the new player's list
    for row in seats:
        if row.pk in taken:
            row.save(update_fields=[*taken[row.pk], *transitions.LIST_FIELDS])


def seat_leave(table: Table, seats: list[Seat], user) -> Seat:
    """``user``, a guest seated at the waiting ``table`` (locked by the caller,
    ``endings.table_abandon``; ``seats`` all its seats), gives up their seat: it is open
    again, with a fresh invite link (R30), and the table keeps waiting. In a two-hand
    profile both seats of their pair open, the link on the first (as created). The link
    they came with stays dead: whoever else it reached cannot take the seat with it, and
    the leaver cannot come back and go again to flood the others with notices; the
    creator shares the new one (the ``seat_left`` notice tells them). Returns the seat
    that carries the link. The caller checks that ``user`` is seated and not the creator.
    """
    mine = [seat for seat in seats if seat.user_id == user.pk]
    linked = next(seat for seat in mine if not seat.second_hand)
    for seat in mine:
        seat.user, seat.joined_at, seat.joined_invite_sha256 = None, None, ""
        seat.second_hand, seat.seen_version = False, 0
        seat.invite_token = new_invite_token() if seat is linked else None
    transitions.list_rows(table, seats)
    for seat in mine:
        seat.save(
            update_fields=[
                "user",
                "joined_at",
                "joined_invite_sha256",
                "second_hand",
                "seen_version",
                "invite_token",
                *transitions.LIST_FIELDS,
            ]
        )
    transitions.save_next_version(table)
    outbox.record(
        SeatLeft(
            table_id=table.pk,
            version=table.version,
            user_id=user.pk,
            name=user.username,
            seat_index=linked.index,
        )
    )
    return linked


def invite_renew(*, table_id: int, user, seat_index: int) -> Seat:
    """Replace an open seat's invite token, so the old link stops working (creator only).

    Raises ``TableError``: ``creator_only`` (403) for a player seated there who is not
    the creator, ``not_found`` (404) for anyone not seated (a stranger learns nothing),
    ``table_not_open`` (409) once the match has started, ``no_such_seat`` (400) for a
    seat the table does not have, ``invite_not_found`` (404) for one that is not open or
    has no link (``seven_plus_seven``'s seat 3 goes with seat 1's link).
    """
    with transaction.atomic():
        table = transitions.lock(table_id)
        if table.creator_id != user.pk:
            seated = any(s.user_id == user.pk for s in transitions.table_seats(table))
            raise creator_only() if seated else not_found()
        if table.status != Table.Status.WAITING:
            raise table_not_open()
        check_seat_exists(seat_index, table.seats)
        seat = next(
            (
                s
                for s in transitions.table_seats(table)
                if s.index == seat_index and s.is_open and s.invite_token is not None
            ),
            None,
        )
        if seat is None:
            raise no_invite_to_renew(seat_index)
        seat.invite_token = new_invite_token()
        seat.save(update_fields=["invite_token"])
        transitions.save_next_version(table)
    return seat
