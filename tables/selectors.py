"""Reads: what a user may see of tables, built only from ``dominoes.view_for`` (R31).

Everything a page or an API response shows about a table's game comes from
``table_view_for_user``; nothing here hands out the snapshot, a hand's deal, the stock or
an unfinished hand's seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import (
    Exists,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
)
from django.urls import reverse

from core.compiled_queries import CompiledQuery, from_row, model_columns
from dominoes import (
    MatchState,
    match_from_dict,
    view_for,
)
from dominoes.engine import may_act
from tables.errors import invite_not_found, not_found
from tables.models import Seat, Table
from tables.move_time import overdue
from tables.records import (  # noqa: F401  (callers read them here too)
    hands_played,
    match_from_log,
    match_to_record_empty,
    moves_after,
    public_moves,
    table_record,
)
from tables.rematches import rematch_facts
from tables.seating import (
    acting_seat,
    check_invite_token,
    creators_partner,
    hand_seats,
    invite_sha256,
    player_name,
)


def tables_for_user(user) -> QuerySet[Table]:
    """The tables ``user`` sits at, each once (a ``seven_plus_seven`` player holds two
    seats): the ones where it is their turn first, then active ones by latest move, then
    finished ones. Seats (with users) are prefetched. Every row is read: for a filtered
    few (the history, an invite's check); "my tables" pages go through
    ``tables.listing``."""
    my_seat = Seat.objects.filter(table=OuterRef("pk"), user=user).order_by("index")
    # ``my_seen_version``: the version the user last read (since your last visit);
    # ``priority``: the table's group in their list (``Seat.list_group``, first seat's).
    return (
        Table.objects.filter(pk__in=Seat.objects.filter(user=user).values("table_id"))
        .annotate(my_seat=Subquery(my_seat.values("index")[:1]))
        .annotate(my_seen_version=Subquery(my_seat.values("seen_version")[:1]))
        .annotate(priority=Subquery(my_seat.values("list_group")[:1]))
        .order_by("priority", "-last_move_at", "-pk")
        .prefetch_related(
            Prefetch("seat_set", queryset=Seat.objects.select_related("user").order_by("index"))
        )
    )


def seat_for_user(table: Table, user) -> Seat:
    """``user``'s (first) seat at ``table``; raises ``TableError`` ``not_found`` (404)
    otherwise, so a stranger cannot even learn that the table exists."""
    return seats_for_user(table, user)[0]


def seats_for_user(table: Table, user) -> list[Seat]:
    """Every seat ``user`` holds at ``table``, by index: one, or both seats of a pair in
    ``seven_plus_seven``. Raises ``TableError`` ``not_found`` (404) when there is none."""
    mine = [
        seat
        for seat in table.seat_set.all()
        if seat.user_id is not None and seat.user_id == getattr(user, "pk", None)
    ]
    if not mine:
        raise not_found()
    return mine


def table_for_user(
    table_id: int, user, *, unread: Callable[[Any], Exists] | None = None
) -> tuple[Table, Seat]:
    """The table (seats attached) and ``user``'s first seat, as stored: what has come
    due is applied by ``tables.services.table_for_user``, which reads through this. One
    query: the seats joined to their table and users. ``unread(user_id)`` (an ``Exists``
    over the seat row's ``table_id``; a module-level function, its query is compiled once
    per function) is computed in that query too and left on the table as
    ``table.unread_notices`` (``tables.services.reads``: the notices to mark read).

    Raises ``TableError`` ``not_found`` (404) for a missing table or one the user does not
    sit at.
    """
    table = _load(table_id, unread=unread, user_id=getattr(user, "pk", None))
    return table, seat_for_user(table, user)


_USER = Seat._meta.get_field("user").related_model
_SEAT_COLUMNS = model_columns(Seat)
_TABLE_COLUMNS = model_columns(Table, "table__")
_USER_COLUMNS = model_columns(_USER, "user__")
#: The seats' read, compiled once per ``unread`` function (``None``: without it).
_READS: dict[Callable[[Any], Exists] | None, CompiledQuery] = {}


def _seats_read(unread: Callable[[Any], Exists] | None) -> CompiledQuery:
    """The one query of ``_load``: every concrete column of the seats (by index), of their
    table and of their users (a LEFT JOIN: an open seat or a bot has none), then
    ``unread(user_id)`` when given; compiled to SQL once (``core.compiled_queries``)."""
    read = _READS.get(unread)
    if read is not None:
        return read

    def build(table_id: int, user_id: int | None = None):
        rows = Seat.objects.filter(table_id=table_id).order_by("index")
        columns = [*_SEAT_COLUMNS, *_TABLE_COLUMNS, *_USER_COLUMNS]
        if unread is not None:
            rows = rows.annotate(unread_notices=unread(user_id))
            columns.append("unread_notices")
        return rows.values_list(*columns)

    read = _READS[unread] = CompiledQuery(build, kinds=(int, int) if unread else (int,))
    return read


def _load(
    table_id: int, *, unread: Callable[[Any], Exists] | None = None, user_id: int | None = None
) -> Table:
    """The table with its seats and their users, in one query compiled once
    (``_seats_read``): every table has its seats from creation on, so no seat row means
    no table. The instances are the ones ``select_related("table", "user")`` would make."""
    values = (table_id, user_id) if unread is not None else (table_id,)
    rows = _seats_read(unread).rows(*values)
    if not rows:
        raise not_found()
    table, _end = from_row(Table, rows[0], len(_SEAT_COLUMNS))
    users_at = len(_SEAT_COLUMNS) + len(_TABLE_COLUMNS)
    seats = []
    for row in rows:
        seat, _end = from_row(Seat, row, 0)
        seat.user = from_row(_USER, row, users_at)[0] if seat.user_id is not None else None
        seats.append(seat)
    attach_seats(table, seats)
    if unread is not None:
        table.unread_notices = rows[0][-1]
    return table


def attach_seats(table: Table, seats: list[Seat]) -> None:
    """Make ``seats`` (all of ``table``'s, by index) what ``table.seat_set.all()``
    answers, as ``prefetch_related`` would, so the view is built without reading them
    again (the write that just saved them, or the one-query load above)."""
    for seat in seats:
        seat.table = table
    cached = table.seat_set.all()  # lazy: never run, its result is set here
    cached._result_cache = list(seats)
    cached._prefetch_done = True
    if not hasattr(table, "_prefetched_objects_cache"):
        table._prefetched_objects_cache = {}
    table._prefetched_objects_cache["seat_set"] = cached


def _players(table: Table, view: dict | None) -> list[dict[str, Any]]:
    players = []
    seats = list(table.seat_set.all())
    for seat in seats:
        players.append(
            {
                "seat": seat.index,
                "name": player_name(seat, seats, table.rules),
                "bot": seat.bot or None,
                "open": seat.is_open,
                "team": seat.team,
                "score": seat.score,
                "tile_count": view["tile_counts"][seat.index] if view else None,
            }
        )
    return players


def invite_links(table: Table, user) -> list[dict[str, Any]]:
    """The share links of a waiting table's open seats, for its creator only (R30):
    ``[{"seat", "hands", "partner", "token", "path"}]``; empty for anyone else. ``hands``
    is every seat the link takes: ``[seat]``, or ``[1, 3]`` in ``seven_plus_seven``."""
    if table.creator_id != getattr(user, "pk", None) or table.status != Table.Status.WAITING:
        return []
    return [
        {
            "seat": seat.index,
            "hands": hand_seats(table.rules, table.seats, seat.index),
            "partner": creators_partner(table.rules, table.seats, seat.index),
            "token": seat.invite_token,
            "path": reverse("tables:invite", args=[seat.invite_token]),
        }
        for seat in table.seat_set.all()
        if seat.is_open and seat.invite_token
    ]


def match_state(table: Table) -> MatchState:
    """The engine state of ``table``'s snapshot (``table.state`` must be set), parsed once
    per Table object: a write that just saved it (``remember_match``) or an earlier read
    of the same object hands it over instead of parsing the JSON again."""
    cached = getattr(table, "_match_cache", None)
    if cached is not None and cached[0] is table.state:
        return cached[1]
    match = match_from_dict(table.state)
    remember_match(table, match)
    return match


def remember_match(table: Table, match: MatchState) -> None:
    """``match`` is what ``table.state`` (just set) holds: ``match_state`` returns it."""
    table._match_cache = (table.state, match)


def table_view_for_user(table: Table, seat: Seat, user, *, moves=None) -> dict[str, Any]:
    """The table as ``user``'s seat sees it: table facts, players, the invite links
    (creator, waiting) and the game view (``dominoes.view_for``, R31) once the match has
    started. ``game.last_hand.explanation`` is the engine's account of how the last hand
    was scored (``dominoes.scoring.explain``: rule, counts, pair totals, tie-break values)
    for the page to render as is; ``game.left_seats`` lists the seats that left a
    ``first_double`` hand that went on without them.

    ``your_seats`` lists every seat the user holds; ``hands`` has, per held seat, its
    tiles, its ``legal_moves`` and ``to_play`` (each from that seat's own ``view_for``).
    A user holding two seats (``seven_plus_seven``, R31 per seat, the union of their own
    two views) sees both hands; ``your_seat``, and so ``game``, is then the seat to act
    when it is one of theirs, else their first (``tables.seating.acting_seat``).
    ``moves``: ``since_last_visit``'s, when the caller read them (``moves_after``)."""
    mine = [held.index for held in seats_for_user(table, user)] if user else [seat.index]
    game = None
    hands: list[dict[str, Any]] = []
    if table.state is not None:
        match = match_state(table)
        views = {index: view_for(match, index).to_dict() for index in mine}
        seat_index = acting_seat(match, mine)
        game = views[seat_index]
        playing = table.status == Table.Status.PLAYING
        hands = [
            {
                "seat": index,
                "tiles": views[index]["tiles"],
                "legal_moves": views[index]["legal_moves"],
                "to_play": playing and may_act(match, index),
            }
            for index in mine
        ]
    else:
        seat_index = mine[0]
    return {
        "id": table.pk,
        "status": table.status,
        "seats": table.seats,
        "target": table.target,
        "rules": table.rules,
        "version": table.version,
        "created_at": table.created_at,
        "turn_seat": table.turn_seat,
        "turn_started_at": table.turn_started_at,
        "deadline": table.deadline,
        "overdue": overdue(table),
        "move_seconds": table.move_seconds,
        "your_seat": seat_index,
        "your_seats": mine,
        "your_turn": table.status == Table.Status.PLAYING and table.turn_seat in mine,
        "outcome": table.outcome or None,
        "winners": table.winners,
        "players": _players(table, game),
        "invites": invite_links(table, user),
        "you_created": user is not None and table.creator_id == user.pk,
        "hands": hands,
        "game": game,
        "since_your_last_visit": since_last_visit(table, seat, mine, moves),
        **rematch_facts(table, user),
    }


def since_last_visit(table: Table, seat: Seat, mine: list[int], moves=None) -> dict[str, Any]:
    """What happened since ``seat``'s player last read ``table`` (``services.table_read``):
    ``{"from_version", "moves"}``, the moves as ``public_moves`` gives them to the seats
    ``mine`` but a draw's tile only for their own draws, even once its hand ended (R31).
    ``moves``: the table's Move rows after some version at or below the seat's seen one
    (``moves_after``), already read; else they are read here (one query)."""
    if seat.seen_version >= table.version:  # nothing new: no query
        log = []
    else:
        written = getattr(table, "written_moves", None)  # (version before, rows) of a write
        rows = written[1] if written is not None and written[0] == seat.seen_version else None
        if moves is not None:
            rows = [move for move in moves if move.version > seat.seen_version]
        log = public_moves(table, mine, after_version=seat.seen_version, rows=rows)
    return {"from_version": seat.seen_version, "moves": log}


def table_with_seats(table_id: int) -> Table:
    """``table_id`` as stored, seats and users attached, for no reader in particular: one
    query. Raises ``TableError`` ``not_found`` (404) for a missing table."""
    return _load(table_id)


def table_summary_for_user(table: Table, user) -> dict[str, Any]:
    """One row of "my tables": no game view, just who plays, whose turn and the scores.
    ``your_seat`` is the user's first seat, ``your_seats`` all of them."""
    mine = [seat.index for seat in seats_for_user(table, user)]
    return {
        "id": table.pk,
        "status": table.status,
        "rules": table.rules,
        "seats": table.seats,
        "target": table.target,
        "version": table.version,
        "your_seat": mine[0],
        "your_seats": mine,
        "your_turn": table.status == Table.Status.PLAYING and table.turn_seat in mine,
        "turn_seat": table.turn_seat,
        "deadline": table.deadline,
        "overdue": overdue(table),
        "move_seconds": table.move_seconds,
        "last_move_at": table.last_move_at,
        "outcome": table.outcome or None,
        "winners": table.winners,
        "started": _started(table),
        "players": _players(table, None),
        "changed_since_your_last_visit": table.version > _seen_version(table, mine[0]),
    }


def _started(table: Table) -> bool:
    """The table's match has begun (``listing.STARTED``): read with the list's rows, else
    from the table (a cancelled table was closed with no snapshot)."""
    started = getattr(table, "started", None)
    if started is not None:
        return started
    playing_or_over = table.status in (Table.Status.PLAYING, Table.Status.FINISHED)
    return playing_or_over or table.state is not None


def _seen_version(table: Table, seat_index: int) -> int:
    """The version the user's seat ``seat_index`` last read: ``tables_for_user``'s
    annotation when the table came from there, else the prefetched seat's."""
    seen = getattr(table, "my_seen_version", None)
    if seen is not None:
        return seen
    return next(s.seen_version for s in table.seat_set.all() if s.index == seat_index)


def invite_preview(token: str, user=None) -> dict[str, Any]:
    """What an open invite is for: ``{"table", "seat", "seats", "target", "rules",
    "move_seconds", "creator", "partner", "players", "joined"}``. ``hands``: the seats the
    invite takes (both seats of the rival pair in ``seven_plus_seven``). For the person
    who already took the seat with this link (``user``), the same facts with ``joined``
    true: the way back to the table, whatever its status.

    Raises ``TableError`` ``invite_not_found`` (404) for an unknown, revoked or (for
    anyone else) used token, or a table no longer waiting."""
    check_invite_token(token)
    seat = (
        Seat.objects.filter(invite_token=token, user__isnull=True, bot="", table__status="waiting")
        .select_related("table__creator")
        .first()
    )
    joined = False
    if seat is None and getattr(user, "is_authenticated", False):
        seat = (
            Seat.objects.filter(
                joined_invite_sha256=invite_sha256(token), user=user, second_hand=False
            )
            .select_related("table__creator")
            .first()
        )
        joined = seat is not None
    if seat is None:
        raise invite_not_found()
    table = _load(seat.table_id)
    return {
        "joined": joined,
        "table": table.pk,
        "seat": seat.index,
        "hands": hand_seats(table.rules, table.seats, seat.index),
        "seats": table.seats,
        "target": table.target,
        "rules": table.rules,
        "move_seconds": table.move_seconds,
        "creator": seat.table.creator.username,
        "partner": creators_partner(table.rules, table.seats, seat.index),
        "players": _players(table, None),
    }
