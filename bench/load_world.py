"""The load benchmark's world, built inside the server's own checkout (``bench/load.py``
runs it with that checkout's Python, so an older commit's ``--baseline`` server gets a
database its own code made): migrate, then users with API tokens and running two-seat
human tables made through ``tables.services``. Prints ``{token: [table ids]}`` as JSON.

    python -m bench.load_world PLAYERS TABLES SEED   (DJANGO_SETTINGS_MODULE, DATABASE_URL set)
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict


def create_world(players: int, tables: int, seed: int) -> dict[str, list[int]]:
    """``players`` users with tokens and ``tables`` two-seat tables between them (a random
    opponent per table, seeded): ``{token: [table ids]}``."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from tables import services

    call_command("migrate", verbosity=0, interactive=False)
    users_model = get_user_model()
    users = []
    for index in range(players):
        user = users_model(
            username=f"load{index:03d}",
            email=f"load{index:03d}@example.invalid",
            email_notifications=False,
        )
        user.set_unusable_password()
        user.save()
        users.append(user)
    tokens = {user.pk: Token.objects.create(user=user).key for user in users}
    seats: dict[str, list[int]] = defaultdict(list)
    rng = random.Random(seed)
    for index in range(tables):
        first = users[index % len(users)]
        second = users[(index + 1 + rng.randrange(len(users) - 1)) % len(users)]
        if second.pk == first.pk:
            second = users[(index + 1) % len(users)]
        table = services.table_create(creator=first, seats=2, target=100, others=["friend"])
        token = table.seat_set.get(index=1).invite_token
        services.seat_join(token=token, user=second)
        seats[tokens[first.pk]].append(table.pk)
        seats[tokens[second.pk]].append(table.pk)
    return dict(seats)


def main(argv: list[str]) -> int:
    import django

    django.setup()
    players, tables, seed = (int(value) for value in argv)
    print(json.dumps(create_world(players, tables, seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
