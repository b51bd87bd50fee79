"""Reads of "Partidas terminadas" (``tables.views.history``): a player's finished and
closed tables in pages, newest first, read by the keyset cursor of "my tables"
(``tables.listing.page_query``, the group ``LIST_OVER`` of the index ``seat_my_tables``),
filtered in the same query by result and opponent, so a page costs the same queries for
a player with 2 finished tables as for one with 2,000 (docs/scaling.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import (
    BooleanField,
    Case,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce
from django.db.models.lookups import Exact

from tables import listing
from tables.models import BOT_CHOICES, Hand, Seat, Table
from tables.seating import LIST_OVER

#: Finished matches come in pages of this many rows.
PAGE_SIZE = 20
#: The opponents offered in the filter are those of this many latest finished tables
#: (any other name can still be typed).
RECENT_TABLES = 100
#: The most seats a table has, and so the most winners (seat indexes) it lists.
MOST_SEATS = 4
_NUMBERS = ("", " II", " III", " IV")  # "Nino II": the second Nino at one table


@dataclass
class HistoryPage:
    """One page: its ``tables`` newest first (each with ``my_seat``, its seats and
    ``replayable``), the cursor of the older page and that of the newer one (``None``
    when there is none)."""

    tables: list[Table]
    older: str | None
    newer: str | None


def history_page(
    user, cursor: str = "", *, newer: bool = False, where: Q | None = None, size: int = PAGE_SIZE
) -> HistoryPage:
    """The page of ``user``'s finished tables matching ``where`` (``history_filter``;
    ``None``: every table of the group, cancelled ones too) after ``cursor`` (``""``: the
    newest), or with ``newer`` the page before it. Two queries (the page with its tables,
    their seats with users) whatever the number of tables. Raises ``TableError``
    ``invalid`` (400) for a cursor no page gave, or one of another group of "my
    tables"."""
    # The replay shows finished hands (``replays.replay_data``): a match abandoned in its
    # first hand has none. The first finished hand's id, as a subquery with a LIMIT, is
    # worked out for each row of the page only, through ``hand_unique_number`` (an
    # ``Exists`` here became a hash of the whole hand table).
    finished = Hand.objects.filter(table_id=OuterRef("table_id"), ended_at__isnull=False)
    replayable = Subquery(finished.order_by("number").values("pk")[:1])
    rows = list(
        listing.page_query(
            user,
            cursor,
            size,
            group=LIST_OVER,
            where=where,
            annotate={"replayable": replayable, "started": listing.started()},
            newer=newer and bool(cursor),
        )
    )
    more = len(rows) > size
    rows = rows[:size]
    if newer and cursor:
        rows.reverse()
    tables = listing.tables_of(rows)
    for seat, table in zip(rows, tables, strict=True):
        table.replayable = seat.replayable is not None
    first = listing.cursor_of(rows[0]) if rows else None
    last = listing.cursor_of(rows[-1]) if rows else None
    if newer and cursor:
        return HistoryPage(tables, older=last, newer=first if more else None)
    return HistoryPage(tables, older=last if more else None, newer=first if cursor else None)


def history_filter(user, result: str = "", opponent: str = "") -> Q:
    """The condition on ``user``'s seat rows: a match was played there (``listing.STARTED``:
    a table cancelled before it began is no finished match), and for ``?result=won``
    their first seat is among the table's winners, ``lost`` it is not (lost, or no
    winner), for ``?opponent=<name>`` another player at the table has that name (a
    username, or a bot's, "Nino" or "Nino II" alike)."""
    conditions = [listing.STARTED]
    if result in ("won", "lost"):
        won = _won()
        conditions.append(won if result == "won" else ~won)
    if opponent:
        conditions.append(_against(user, opponent))
    return reduce(lambda a, b: a & b, conditions)


def _won() -> Q:
    """The seat row's ``index`` is one of its table's ``winners`` (a JSON list of at most
    ``MOST_SEATS`` seat indexes; PostgreSQL and SQLite alike): never NULL, so its
    negation holds for a table with no winner."""

    def winner(position: int):
        seat = Cast(KeyTextTransform(str(position), "table__winners"), IntegerField())
        return Coalesce(seat, Value(-1))

    among = reduce(or_, (Q(Exact(winner(n), F("index"))) for n in range(MOST_SEATS)))
    # As a CASE, PostgreSQL guesses it keeps half the rows (it would guess 2 % for the OR
    # of equalities and read all the player's seats for a page): it walks the index.
    return Q(Case(When(among, then=Value(True)), default=Value(False), output_field=BooleanField()))


def _against(user, name: str) -> Q:
    """Someone else sat at the seat row's table under ``name``, in any case (usernames are
    unique regardless of case: "Alice" finds alice)."""
    others = Seat.objects.filter(table_id=OuterRef("table_id")).exclude(user=user)
    named = Q(user__username__iexact=name)
    bot = bot_named(name)
    if bot:
        named |= Q(bot=bot)
    return Q(Exists(others.filter(named)))


def bot_named(name: str) -> str:
    """The bot (a ``BOT_CHOICES`` key) whose player is called ``name`` at some table
    ("Nino", "Nino II": ``seating.bot_name``, in any case), or ``""``."""
    for bot, label in BOT_CHOICES:
        if name.casefold() in (str(label + number).casefold() for number in _NUMBERS):
            return bot
    return ""


def recent_opponents(user) -> list[str]:
    """The names of the other players (people and bots, by bot name: "Nino") at
    ``user``'s ``RECENT_TABLES`` latest finished tables, sorted: one query, a bounded
    range of ``seat_my_tables`` and the seats of those tables."""
    recent = (
        Seat.objects.filter(user=user, second_hand=False, list_group=LIST_OVER)
        .filter(listing.STARTED)
        .order_by(*listing.ORDER)
        .values("table_id")[:RECENT_TABLES]
    )
    rows = (
        Seat.objects.filter(table_id__in=recent)
        .exclude(user=user)
        .order_by()  # not by Seat's default (table, index): DISTINCT would keep them
        .values_list("bot", "user__username")
        .distinct()
    )
    bots = dict(BOT_CHOICES)
    return sorted({bots[bot] if bot else username for bot, username in rows if bot or username})
