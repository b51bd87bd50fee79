"""Notices of who comes and goes at a table still waiting for players (R30): a friend
took a seat through an invite link (``friend_joined``, and ``table_started`` when that
filled the table), or a guest gave up their seat (``seat_left``). Written by the tasks
``notices.tasks.record_seat_taken`` and ``record_seat_left``, queued by
``tables.services.lobby`` once its write commits."""

from __future__ import annotations

from notices.models import Notification
from notices.services import _company, _people, _write, once, public_facts, seat_name, seats_of
from tables.models import Table

Kind = Notification.Kind


def record_seat_taken(*, table_id: int, user_id: int) -> list[Notification]:
    """User ``user_id`` took a seat at ``table_id`` through an invite link (R30): the
    others seated get ``friend_joined``; when that filled the table and the match started,
    ``table_started`` too. The person who sat down is at the table and gets nothing.
    Returns the notices written here."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return []
    seats = seats_of(table)
    joined = next((s for s in seats if s.user_id == user_id), None)
    if joined is None:
        return []
    written = []
    for person in _people(seats):
        if person.pk == user_id:
            continue
        payload = public_facts(table, seats) | {"joined": seat_name(table, seats, joined)}
        with_them = _company(table, seats, person.pk)
        # Who they play with, partner too ("con carol (tu pareja) contra bob y dave").
        with_them["others"] = once(filter(None, [with_them["partner"], *with_them["others"]]))
        payload |= with_them
        for kind in (Kind.FRIEND_JOINED, Kind.TABLE_STARTED):
            if kind == Kind.TABLE_STARTED and table.state is None:
                continue
            key = str(user_id) if kind == Kind.FRIEND_JOINED else ""
            notice = _write(person, kind, table, key, payload)
            if notice is not None:
                written.append(notice)
    return written


def record_seat_left(
    *, table_id: int, user_id: int, name: str, seat_index: int, version: int
) -> list[Notification]:
    """User ``user_id``, called ``name`` (given by the writer: a player deleting their
    account leaves first, and is gone when this runs), gave up their seat
    ``seat_index`` (0-based; in
    ``seven_plus_seven`` the pair's first) at the waiting table ``table_id``, leaving it
    at ``version`` (``tables.services.lobby.seat_leave``): everyone still seated gets a
    ``seat_left`` notice (inbox, and push under ``push_seat_left`` as the other seating
    kinds: ``notices.tasks.record_seat_left``), once per departure (``key``: that version).
    ``payload``: the public facts, ``left`` (their name), ``seat`` (1-based) and
    ``creator`` (whether the reader created the table: their sentence says the seat has
    a new link to share). Returns the notices written here."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return []
    seats = seats_of(table)
    base = public_facts(table, seats) | {"left": name, "seat": seat_index + 1}
    written = []
    for person in _people(seats):
        if person.pk == user_id:
            continue
        payload = base | {"creator": person.pk == table.creator_id}
        notice = _write(person, Kind.SEAT_LEFT, table, str(version), payload)
        if notice is not None:
            written.append(notice)
    return written
