"""Matches played out for the tests: ``play_while`` plays one person's random legal moves
through the services; ``quick_finished_table`` makes finished matches for the analysis and
public-link tests (``capture`` is pytest-django's
``django_capture_on_commit_callbacks``, or anything with the same call): made and played
through the services and the API, so the Hand and Move rows the record is built from
(``tables.selectors.table_record``) are those of a real match."""

from __future__ import annotations

import random
import time

from tables import selectors, services
from tables.models import Seat, Table
from tests.support.api import play_one, table, token_client


def quick_finished_table(
    users: list,
    others: list[str],
    seed: int,
    capture,
    *,
    rules: str = "classic",
    seats: int | None = None,
    target: int = 50,
) -> Table:
    """A finished table of ``users`` (``"friend"`` seats of ``others`` taken by
    ``users[1:]`` in order), played to ``target``: the people play random legal moves
    (seeded) through the API, the bots of ``others`` answer inline (tasks run on commit).
    ``seats`` is one more than ``others`` unless given (``seven_plus_seven``: 4, and
    ``others`` names the rival pair)."""
    with capture(execute=True):
        created = services.table_create(
            creator=users[0],
            seats=seats or len(others) + 1,
            target=target,
            others=others,
            rules=rules,
        )
        friends = iter(users[1:])
        invited = Seat.objects.filter(table=created, invite_token__isnull=False)
        for seat in invited.order_by("index"):
            services.seat_join(token=seat.invite_token, user=next(friends))
    people = Seat.objects.filter(table=created, user__isnull=False).exclude(bot__gt="")
    clients = {seat.index: token_client(seat.user) for seat in people}
    rng = random.Random(seed)
    for _ in range(2000):  # a match to 50 takes far fewer moves
        state = table(clients[min(clients)], created.pk)
        if state["status"] != "playing":
            break
        mover = table(clients[state["turn_seat"]], state["id"])
        with capture(execute=True):  # the bots' answers run on commit, one move at a time
            assert play_one(clients[state["turn_seat"]], mover, rng).status_code == 200
    finished = Table.objects.get(pk=created.pk)
    assert finished.status == Table.Status.FINISHED, finished.status
    return finished


def play_while(user, table_id: int, *, while_) -> dict:
    """Play ``user``'s random legal moves through the services (the bot answers on commit)
    while ``while_(view)`` holds; returns the last view."""
    rng = random.Random(table_id)
    for _ in range(400):
        table, seat = services.table_for_user(table_id, user)
        view = selectors.table_view_for_user(table, seat, user)
        if view["status"] != "playing" or not while_(view):
            return view
        moves = view["game"]["legal_moves"]
        if not view["your_turn"] or not moves:
            time.sleep(0.05)  # the bot's turn is on its way
            continue
        move = rng.choice(moves)
        services.move_play(
            table_id=table_id,
            user=user,
            version=view["version"],
            tile=move["tile"],
            end=move["end"],
        )
    raise AssertionError("the table did not get there")
