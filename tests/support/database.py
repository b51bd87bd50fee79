"""Tables built through the services (never by writing rows by hand), and short readers of
the database."""

from __future__ import annotations

import random

from tables import services
from tables.models import Move, Seat, Table


def human_table(creator, *others) -> Table:
    """A started table of people created through the services (no API, no throttling)."""
    table = services.table_create(
        creator=creator, seats=1 + len(others), target=100, others=["friend"] * len(others)
    )
    for seat, user in zip(
        Seat.objects.filter(table=table, index__gt=0).order_by("index"), others, strict=True
    ):
        services.seat_join(token=seat.invite_token, user=user)
    return Table.objects.get(pk=table.pk)


def bot_table_on_human_turn(user) -> Table:
    """A started two-seat table, ``user`` (seat 0) against Garabato, with ``user`` to move
    (the bot's lead played through the service when it had it)."""
    created = services.table_create(creator=user, seats=2, target=100, others=["garabato"])
    row = fresh(created.pk)
    if row.turn_seat == 1:
        assert services.bot_play(table_id=row.pk, version=row.version)
        row = fresh(created.pk)
    assert row.turn_seat == 0
    return row


def fresh(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def move_count(table_id: int) -> int:
    return Move.objects.filter(table_id=table_id).count()


def human_moves_until_bot_turn(table_id: int, user, rng: random.Random, limit: int = 20) -> Table:
    """``user`` (seat 0, against bots whose tasks are not run) plays random legal moves
    through the service until a bot is to move; returns the table at that moment."""
    from dominoes import view_for

    for _ in range(limit):
        row = fresh(table_id)
        assert row.status == Table.Status.PLAYING, row.status
        seat = Seat.objects.get(table_id=table_id, index=row.turn_seat)
        if seat.bot:
            return row
        view = view_for(services.match_of(row), row.turn_seat)
        play = rng.choice(view.legal_moves)
        services.move_play(
            table_id=table_id, user=user, tile=str(play.tile), end=play.end, version=row.version
        )
    raise AssertionError("no bot turn came")
