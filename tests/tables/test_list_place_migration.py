"""Existing seats get their place in their players' "my tables" lists when
``Seat.list_group`` and ``Seat.list_moved_at`` arrive (tables 0014).

The database is taken back to tables 0013, tables in every state are made there (a turn
that is alice's, one that is bob's, a two-hand player's turn at their second hand, one
waiting for players, a finished and a closed one), then migrated forward as a deployment
would: each seat's group and last move are what the services would have written."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.migrations import alice_and_bob, latest_migrations, migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tables", "0013_table_remind_at")]


def test_every_seat_gets_its_place_in_its_players_list():
    latest = latest_migrations()
    old_apps = migrate_to(BEFORE)
    now = timezone.now()
    try:
        alice, bob = alice_and_bob()
        Table = old_apps.get_model("tables", "Table")
        Seat = old_apps.get_model("tables", "Seat")

        def made(status, turn, holders, *, minutes, rules="classic"):
            row = Table.objects.create(
                creator_id=alice.pk,
                status=status,
                turn_seat=turn,
                rules=rules,
                seats=len(holders),
                target=100,
                last_move_at=now - timedelta(minutes=minutes),
            )
            for index, (user, second) in enumerate(holders):
                Seat.objects.create(
                    table=row,
                    index=index,
                    user_id=getattr(user, "pk", None),
                    team=index % 2,
                    second_hand=second,
                )
            return row

        pair = [(alice, False), (bob, False), (alice, True), (bob, True)]
        tables = {
            "alices_turn": made("playing", 0, [(alice, False), (bob, False)], minutes=1),
            "bobs_turn": made("playing", 1, [(alice, False), (bob, False)], minutes=2),
            "second_hand": made("playing", 2, pair, minutes=3, rules="seven_plus_seven"),
            "waiting": made("waiting", None, [(alice, False), (None, False)], minutes=4),
            "finished": made("finished", None, [(alice, False), (bob, False)], minutes=5),
            "closed": made("closed", None, [(alice, False), (bob, False)], minutes=6),
        }
    finally:
        new_apps = migrate_to(latest)

    Seat = new_apps.get_model("tables", "Seat")
    places = {
        (row.table_id, row.index): (row.list_group, row.list_moved_at) for row in Seat.objects.all()
    }

    def place(name, index):
        return places[(tables[name].pk, index)]

    moved = {name: row.last_move_at for name, row in tables.items()}
    assert place("alices_turn", 0) == (0, moved["alices_turn"])  # alice's turn
    assert place("alices_turn", 1) == (1, moved["alices_turn"])  # bob: playing
    assert place("bobs_turn", 0)[0] == 1 and place("bobs_turn", 1)[0] == 0
    # alice holds seats 0 and 2: her second hand is to act, so her (first) seat says so
    assert [place("second_hand", index)[0] for index in range(4)] == [0, 1, 0, 1]
    assert place("waiting", 0) == (2, moved["waiting"]) and place("waiting", 1)[0] == 2
    assert {place("finished", i)[0] for i in (0, 1)} == {3}
    assert {place("closed", i) for i in (0, 1)} == {(3, moved["closed"])}
