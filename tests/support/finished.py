"""Finished matches for the replay, analysis and public-link tests: played to their end
through the services, the people choosing seeded random legal moves and the bots moving on
commit (``capture`` is pytest-django's ``django_capture_on_commit_callbacks``)."""

from __future__ import annotations

import random

from django.utils import timezone

from dominoes import advance, apply, match_to_dict, new_match, start_hand, view_for
from dominoes.bots import choose_play
from tables import selectors, services
from tables.models import Seat, Table


def finished_table(users: list, others: list[str], seed: int, capture, target: int = 50) -> Table:
    """A table created by ``users[0]`` with ``others`` (``"friend"`` seats are taken by
    ``users[1:]`` in order), played to the end of its match."""
    with capture(execute=True):
        table = services.table_create(
            creator=users[0], seats=len(others) + 1, target=target, others=others
        )
    friends = iter(users[1:])
    for seat in Seat.objects.filter(table=table, invite_token__isnull=False).order_by("index"):
        with capture(execute=True):
            services.seat_join(token=seat.invite_token, user=next(friends))
    rng = random.Random(seed)
    for _ in range(2000):
        fresh = Table.objects.get(pk=table.pk)
        if fresh.status != Table.Status.PLAYING:
            return fresh
        mover = next(
            u
            for u in users
            if Seat.objects.filter(table=fresh, user=u, index=fresh.turn_seat).exists()
        )
        seat = Seat.objects.get(table=fresh, user=mover, index=fresh.turn_seat)
        view = selectors.table_view_for_user(fresh, seat, mover)
        move = rng.choice(view["game"]["legal_moves"])
        with capture(execute=True):
            services.move_play(
                table_id=table.pk,
                user=mover,
                version=view["version"],
                tile=move["tile"],
                end=move["end"],
            )
    raise AssertionError("the match did not end")


def quick_finished_table(users: list, others: list[str], seed: int, capture) -> Table:
    """Like ``finished_table`` but fast: the table is made and its seats taken through the
    services, then its engine snapshot is replaced by a whole match of Ninos to 50 (seeded)
    and the table marked finished. Enough for what reads only the snapshot (the record,
    the replay, the analysis); the Hand and Move rows are those of the unplayed start."""
    with capture(execute=False):
        table = services.table_create(
            creator=users[0], seats=len(others) + 1, target=50, others=others
        )
        friends = iter(users[1:])
        for seat in Seat.objects.filter(table=table, invite_token__isnull=False).order_by("index"):
            services.seat_join(token=seat.invite_token, user=next(friends))
    rng = random.Random(seed)
    match = advance(new_match(table.seats, 50, seed=rng.randbytes(8)))
    while not match.is_over:
        if match.hand.result is not None:
            match = advance(start_hand(match, seed=rng.randbytes(8)))
            continue
        view = view_for(match, match.hand.turn)
        match = advance(apply(match, choose_play("nino", view, seed=rng.randrange(99))))
    Table.objects.filter(pk=table.pk).update(
        state=match_to_dict(match),
        status=Table.Status.FINISHED,
        outcome=Table.Outcome.TARGET,
        winners=list(match.winners),
        turn_seat=None,
        deadline=None,
        finished_at=timezone.now(),
    )
    for index, score in enumerate(match.scores):
        Seat.objects.filter(table=table, index=index).update(score=score)
    return Table.objects.get(pk=table.pk)
