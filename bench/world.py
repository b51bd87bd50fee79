"""Build the world of docs/scaling.md ("Data at size") in the database ``DATABASE_URL`` names
(``tests.support.world.build``: bulk ``COPY``, one transaction):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/domino_world \\
        .venv/bin/python -m bench.world --players 100000 --finished 100000 --running 20000

``--players`` users, ``--finished`` finished and ``--running`` running tables, ``--heavy``
finished tables more for the first new player; ``--players 0`` adds tables among the
players an earlier run made. Prints the rows, seconds and ``pg_database_size`` before and
after."""

from __future__ import annotations

import argparse
import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django.setup()

from django.db import connection  # noqa: E402

from tests.support.world import build  # noqa: E402


def database_size() -> int:
    """``pg_database_size`` of the current database, in bytes."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        return cursor.fetchone()[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, default in (("players", 1000), ("finished", 1000), ("running", 200)):
        parser.add_argument(f"--{name}", type=int, default=default)
    for name, default in (("heavy", 0), ("template_count", 40), ("seed", 19)):
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=default)
    args = vars(parser.parse_args(argv))
    before = database_size()
    world = build(**args)
    result = {"rows": world.rows, "seconds": round(world.seconds, 1)}
    result |= {"database_bytes_before": before, "database_bytes_after": database_size()}
    print(json.dumps(result | {"first_new_player": (world.user_ids or [None])[0]}, indent=2))


if __name__ == "__main__":
    main()
