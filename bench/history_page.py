"""Time "Partidas terminadas" (``/partidas/``) for players with 2, 20 and ``--tables``
finished matches: the median of ``--repeat`` requests (ms, Django's test client in
this process) and the SQL queries of one, first page and filtered ones.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/domino_history_bench \\
        .venv/bin/python -m bench.history_page --tables 2000

    # the same figures for an older commit's code, on the same database:
    git archive 9ab1c2d | tar -x -C /tmp/old
    DATABASE_URL=... .venv/bin/python -m bench.history_page --root /tmp/old

Settings ``config.settings.test``; it migrates the database named by ``DATABASE_URL``
(a scratch one: it adds three players and their tables on every run). One match is
played against Nino through the services; its snapshot and first hand are copied into
every other table (bulk ``INSERT``), so each row is replayable as a real one is.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

#: the first page, two filters, and a name nobody has (the filter reads the whole range)
PATHS = (
    "/partidas/",
    "/partidas/?result=won",
    "/partidas/?opponent=Nino",
    "/partidas/?opponent=nadie",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    os.chdir(args.root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    players, template = _world(args.tables)
    for player in players:
        for path in PATHS:
            ms, queries, size = _time(player, path, args.repeat)
            count = player.seats.filter(list_group=3).count()
            print(f"{count:6d} finished  {path:26s} {ms:8.1f} ms  {queries:5d} queries  {size} B")


def _world(count: int):
    from accounts.models import User
    from tables.models import Hand, Table

    tag = f"{time.time_ns():x}"[-8:]
    players = [
        User.objects.create_user(f"h{n}{tag}", f"h{n}{tag}@bench.test", f"bench-{tag}-pw")
        for n in (2, 20, count)
    ]
    played = _play_one(players[0])
    template = (Table.objects.get(pk=played.pk), Hand.objects.filter(table=played).first())
    for player, many in zip(players, (1, 20, count), strict=True):
        start = time.perf_counter()
        _copies(player, many, *template)
        print(f"{many} tables for {player.username} in {time.perf_counter() - start:.1f} s")
    return players, template


def _play_one(user):
    from tables import selectors, services

    table = services.table_create(creator=user, seats=2, target=50, others=["nino"])
    rng = random.Random(1)
    for _ in range(600):
        fresh, seat = services.table_for_user(table.pk, user)
        view = selectors.table_view_for_user(fresh, seat, user)
        if view["status"] != "playing":
            return fresh
        move = rng.choice(view["game"]["legal_moves"])
        services.move_play(table_id=table.pk, user=user, version=view["version"], **_move(move))
    raise RuntimeError("the match did not end")


def _move(move: dict) -> dict:
    return {"tile": move["tile"], "end": move["end"]}


def _copies(user, count: int, real, hand) -> None:
    """``count`` finished two-seat tables of ``user`` against Nino or Garabato, one a
    minute apart, each with ``real``'s snapshot and a copy of its first ``hand``."""
    from django.forms.models import model_to_dict
    from django.utils import timezone

    from tables.models import Hand, Seat, Table
    from tables.seating import list_group

    now = timezone.now()
    rows = Table.objects.bulk_create(
        Table(
            seats=2,
            target=50,
            status="finished",
            state=real.state,
            version=real.version,
            last_move_at=now - timedelta(minutes=n),
            finished_at=now - timedelta(minutes=n),
            winners=[n % 2],
            outcome="target",
        )
        for n in range(count)
    )
    seats, hands = [], []
    facts = model_to_dict(hand, exclude=["id", "table"])
    for n, row in enumerate(rows):
        for index, bot in enumerate(("", ("nino", "garabato")[n % 2])):
            seats.append(
                Seat(
                    table=row,
                    index=index,
                    user=None if bot else user,
                    bot=bot,
                    team=index,
                    list_group=list_group("finished", None, [index]),
                    list_moved_at=row.last_move_at,
                )
            )
        hands.append(Hand(table=row, **facts))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)


def _time(user, path: str, repeat: int) -> tuple[float, int, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(user)
    client.get(path)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    return statistics.median(times), len(queries), len(response.content)


if __name__ == "__main__":
    main()
