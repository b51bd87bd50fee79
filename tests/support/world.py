"""A realistic world in the database, written with bulk ``COPY`` (psycopg 3), not the ORM:
``build`` adds players, finished tables with every hand and move, running tables and their
notices, as the service writes them. The sweep-plan test builds 2,000 tables with it;
``python -m bench.world`` builds the 100,000-table world of docs/scaling.md.

What ``build`` adds to the (migrated) database:
- ``players`` users (``player<n>``, unusable passwords, one e-mail address each);
- ``finished`` finished tables (2/3/4 seats, to 50 or 100) with their seats, every
  hand, every move and the snapshot, as the service writes them: matches played by the
  engine and bots (``template_count`` per table size, reused under new ids and times),
  seats held by the creator plus friends or bots, finished over the last year;
- ``running`` tables: 5 % waiting for a friend (an open invite), the others mid-match
  with the turn at a person whose deadline (R27) is spread over the next two days (those
  within ``REMINDER_SECONDS`` already reminded), except 2 % at a bot's turn that began
  within the last minute; nothing is due, the bench makes rows due (``bench.world_bench``);
  one notice per person per table (``match_over`` sent, ``your_turn`` skipped);
- ``heavy`` finished tables more for the first new player (the "my tables" bench's);
  ``players=0`` adds tables among the players an earlier run made.
"""

from __future__ import annotations

import json
import random
import secrets
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User, username_key
from notices.models import Notification
from tables.models import Hand, Move, Seat, Table
from tables.move_time import reminder_seconds
from tables.seating import list_group
from tables.services.transitions import SNAPSHOT_HANDS as STORED_HANDS
from tests.support.world_templates import BOTS, SNAPSHOT_HANDS, Template, templates

assert SNAPSHOT_HANDS == STORED_HANDS, "world_templates keeps another snapshot"

#: An unusable password (Django's ``make_password(None)`` prefix): nobody signs in as these.
NO_PASSWORD = "!world"


class Copier:
    """Rows for one model, streamed with ``COPY ... FROM STDIN``; ids are given here
    (from the table's current maximum) so children can point at them before the copy."""

    def __init__(self, model, cursor):
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields]
        self.columns = [f.column for f in self.fields]
        table = model._meta.db_table
        cursor.execute(f'SELECT COALESCE(MAX(id), 0) FROM "{table}"')
        self.next_id = cursor.fetchone()[0] + 1
        columns = ", ".join(f'"{c}"' for c in self.columns)
        self._context = cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN')
        self.copy = self._context.__enter__()
        self.defaults = {f.attname: f.get_default() for f in self.fields}
        for f in self.fields:
            if isinstance(self.defaults[f.attname], (dict, list)):
                self.defaults[f.attname] = json.dumps(self.defaults[f.attname])
        self.rows = 0

    def add(self, **values) -> int:
        """Copy one row (``values`` by attribute name, the rest the field defaults);
        returns its id."""
        row_id = values.setdefault("id", self.next_id)
        self.next_id = max(self.next_id, row_id + 1)
        self.copy.write_row([values.get(f.attname, self.defaults[f.attname]) for f in self.fields])
        self.rows += 1
        return row_id

    def close(self, cursor) -> None:
        self._context.__exit__(None, None, None)
        table = self.model._meta.db_table
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
            f'(SELECT COALESCE(MAX(id), 1) FROM "{table}"))'
        )


@dataclass
class World:
    """What ``build`` made: row counts per model, seconds, and the user ids."""

    rows: dict[str, int]
    seconds: float
    user_ids: list[int]


def _users(cursor, count: int, now: datetime, rng: random.Random) -> list[int]:
    users = Copier(User, cursor)
    ids = []
    start = users.next_id
    for n in range(start, start + count):
        name = f"player{n}"
        ids.append(
            users.add(
                username=name,
                username_key=username_key(name),
                email=f"{name}@example.test",
                password=NO_PASSWORD,
                date_joined=now - timedelta(days=rng.uniform(1, 700)),
                language="es" if rng.random() < 0.8 else "en",
            )
        )
    users.close(cursor)
    addresses = Copier(EmailAddress, cursor)
    for user_id in ids:
        addresses.add(user_id=user_id, email=f"player{user_id}@example.test", primary=True)
    addresses.close(cursor)
    return ids


def _existing_users(cursor) -> list[int]:
    """The ids of the ``player<n>`` users a previous build made, oldest first."""
    cursor.execute("SELECT id FROM accounts_user WHERE username LIKE 'player%' ORDER BY id")
    return [row[0] for row in cursor.fetchall()]


class Writer:
    """The copiers of the table rows, open together (children reference parents' ids)."""

    MODELS = (Table, Seat, Hand, Move, Notification)

    def __init__(self, cursor):
        # One COPY at a time per connection: parents first, children spooled in memory.
        self.cursor = cursor
        self.pending: dict[type, list[dict]] = {model: [] for model in self.MODELS}
        self.next_ids: dict[type, int] = {}
        for model in self.MODELS:
            cursor.execute(f'SELECT COALESCE(MAX(id), 0) FROM "{model._meta.db_table}"')
            self.next_ids[model] = cursor.fetchone()[0] + 1
        self.rows = {model.__name__: 0 for model in self.MODELS}
        self.began = time.perf_counter()

    def add(self, model, **values) -> int:
        row_id = self.next_ids[model]
        self.next_ids[model] += 1
        self.pending[model].append({"id": row_id, **values})
        if len(self.pending[Move]) >= 200_000:
            self.flush()
        return row_id

    def flush(self) -> None:
        for model in self.MODELS:
            if not self.pending[model]:
                continue
            copier = Copier(model, self.cursor)
            for values in self.pending[model]:
                copier.add(**values)
            copier.close(self.cursor)
            self.rows[model.__name__] += copier.rows
            self.pending[model] = []
        seconds = time.perf_counter() - self.began
        print(f"{seconds:.0f} s: {json.dumps(self.rows)}", file=sys.stderr, flush=True)


def _seat_holders(seats: int, creator: int, user_ids, rng, turn: int | None, bot_turn: bool):
    """(user_id, bot) for each seat: the creator at 0, then friends or bots; the seat to
    act is a person unless ``bot_turn``."""
    holders = [(creator, "")]
    for index in range(1, seats):
        person = rng.random() < 0.5 if index != turn else not bot_turn
        if person:
            friend = rng.choice(user_ids)
            while friend in {h[0] for h in holders}:
                friend = rng.choice(user_ids)
            holders.append((friend, ""))
        else:
            holders.append((None, rng.choice(BOTS)))
    if turn == 0 and bot_turn:
        holders[0] = (creator, "")  # the creator's own turn: a person after all
    return holders


def _finished(writer: Writer, template: Template, creator: int, user_ids, now, rng) -> None:
    ended = now - timedelta(days=rng.uniform(0.1, 365))
    step = timedelta(minutes=rng.uniform(5, 120))
    actions = sum(len(per_hand) for per_hand in template.moves)
    started = ended - step * actions
    scores = template.final["scores"]
    table = dict(
        seats=template.seats,
        target=template.target,
        status=Table.Status.FINISHED,
        creator_id=creator,
        state=json.dumps(template.final),
        version=template.versions,
        created_at=started,
        last_move_at=ended,
        finished_at=ended,
        outcome=Table.Outcome.TARGET,
        winners=json.dumps(template.final["winners"]),
    )
    table_id = writer.add(Table, **table)
    holders = _seat_holders(template.seats, creator, user_ids, rng, None, False)
    _seats(writer, table_id, holders, scores, started, template.versions, table)
    _log(writer, table_id, template, len(template.hands), actions, started, step)
    for user_id, _bot in holders:
        if user_id is not None:
            writer.add(
                Notification,
                recipient_id=user_id,
                kind=Notification.Kind.MATCH_OVER,
                table_id=table_id,
                payload=json.dumps({"table": table_id, "scores": scores}),
                created_at=ended,
                read_at=ended + timedelta(hours=2),
                channels=json.dumps(["email"]),
                email=Notification.Email.SENT,
            )


def _seats(writer, table_id, holders, scores, joined, seen_version, table: dict) -> None:
    """The seats of a table written as ``table`` (its ``status``, ``turn_seat`` and
    ``last_move_at``), each with its place in its player's list (``Seat.list_group``)."""
    seats, status = len(holders), table.get("status", Table.Status.WAITING)
    for index, (user_id, bot) in enumerate(holders):
        writer.add(
            Seat,
            table_id=table_id,
            index=index,
            user_id=user_id,
            bot=bot,
            team=index % 2 if seats == 4 else index,
            score=scores[index] if scores else 0,
            joined_at=joined if user_id or bot else None,
            invite_token=None if user_id or bot else secrets.token_urlsafe(24),
            seen_version=seen_version,
            list_group=list_group(status, table.get("turn_seat"), [index]),
            list_moved_at=table["last_move_at"],
        )


def _log(writer, table_id, template, hands, actions, started, step) -> None:
    """The Hand and Move rows of the first ``hands`` hands, ``actions`` moves in all."""
    done, version = 0, 1
    for number in range(hands):
        columns = template.hands[number]
        is_last = number == hands - 1 and actions < sum(len(m) for m in template.moves)
        if is_last:  # the hand in play: no result yet
            columns = {**columns, "end": "", "winners": None, "points": None, "counts": None}
        ended = None if is_last else started + step * (done + len(template.moves[number]))
        hand_id = writer.add(
            Hand, table_id=table_id, started_at=started + step * done, ended_at=ended, **columns
        )
        for sequence, move in enumerate(template.moves[number]):
            if done >= actions:
                return
            version += not move["automatic"]
            when = started + step * done
            writer.add(
                Move,
                table_id=table_id,
                hand_id=hand_id,
                sequence=sequence,
                created_at=when,
                version=version,
                **move,
            )
            done += 1


def _running(writer, template, creator, user_ids, now, rng, waiting: bool, bot_turn: bool):
    """A table waiting for a friend, or mid-match at one of the template's snapshots."""
    if waiting:
        table = dict(
            seats=template.seats,
            target=template.target,
            creator_id=creator,
            created_at=now - timedelta(hours=rng.uniform(0, 40)),
            last_move_at=now - timedelta(hours=rng.uniform(0, 40)),
        )
        table_id = writer.add(Table, **table)
        holders = [(creator, "")] + [(None, "")] * (template.seats - 1)
        _seats(writer, table_id, holders, None, now, 0, table)
        return
    snapshot, hands, actions, turn = rng.choice(template.prefixes)
    holders = _seat_holders(template.seats, creator, user_ids, rng, turn, bot_turn)
    person = holders[turn][0] is not None
    turn_started = now - timedelta(seconds=rng.uniform(0, 60))
    deadline = None
    if person:  # deadlines spread over the next two days (R27)
        deadline = now + timedelta(seconds=rng.uniform(60, settings.ABSENCE_SECONDS))
        turn_started = deadline - timedelta(seconds=settings.ABSENCE_SECONDS)
    step = timedelta(minutes=rng.uniform(5, 120))
    started = turn_started - step * actions
    version = 1 + actions  # every action its own write: an upper bound, as good as any
    lead = timedelta(seconds=reminder_seconds(settings.ABSENCE_SECONDS))  # 2-day move time
    remind_at = deadline - lead if deadline is not None else None
    reminded = remind_at is not None and remind_at <= now
    table = dict(
        seats=template.seats,
        target=template.target,
        status=Table.Status.PLAYING,
        creator_id=creator,
        state=json.dumps(snapshot),
        version=version,
        turn_seat=turn,
        created_at=started,
        turn_started_at=turn_started,
        deadline=deadline,
        remind_at=remind_at,
        last_move_at=turn_started,
        reminded_version=version if reminded else None,
    )
    table_id = writer.add(Table, **table)
    _seats(writer, table_id, holders, snapshot["scores"], started, version, table)
    _log(writer, table_id, template, hands, actions, started, step)
    if person:
        writer.add(
            Notification,
            recipient_id=holders[turn][0],
            kind=Notification.Kind.YOUR_TURN,
            table_id=table_id,
            key=str(version),
            payload=json.dumps({"table": table_id}),
            created_at=turn_started,
            email=Notification.Email.SKIPPED,
        )


def build(
    *,
    players: int,
    finished: int,
    running: int,
    heavy: int = 0,
    template_count: int = 20,
    seed: int = 19,
    bot_turns: float = 0.02,
) -> World:
    """Add the world (see the module's docstring) in one transaction; returns the row
    counts, the seconds it took and the new users' ids (the first is the heavy player).
    ``bot_turns``: the share of running tables at a bot's turn."""
    rng = random.Random(seed)
    began = time.perf_counter()
    pool = templates(template_count, rng)
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own cursor: COPY
        user_ids = _users(cursor, players, now, rng) if players else _existing_users(cursor)
        writer = Writer(cursor)
        for n in range(finished + heavy):
            creator = user_ids[0] if n >= finished else rng.choice(user_ids)
            _finished(writer, rng.choice(pool), creator, user_ids, now, rng)
        for _n in range(running):
            waiting, bot_turn = rng.random() < 0.05, rng.random() < bot_turns
            template, creator = rng.choice(pool), rng.choice(user_ids)
            _running(writer, template, creator, user_ids, now, rng, waiting, bot_turn)
        writer.flush()
        # Not a bare ANALYZE: it locks the shared catalogs to COMMIT (other databases wait)
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        cursor.execute("ANALYZE " + ", ".join(f'"{name}"' for (name,) in cursor.fetchall()))
    rows = {"User": players, **writer.rows}
    return World(rows, time.perf_counter() - began, user_ids)
