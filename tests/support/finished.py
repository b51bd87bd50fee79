"""Finished matches for the analysis and public-link tests, made quickly: the table through
the services, its match played by Ninos in the engine (``capture`` is pytest-django's
``django_capture_on_commit_callbacks``, or anything with the same call)."""

from __future__ import annotations

import random

from django.utils import timezone

from dominoes import advance, apply, match_to_dict, new_match, start_hand, view_for
from dominoes.bots import choose_play
from tables import services
from tables.models import Seat, Table


def quick_finished_table(users: list, others: list[str], seed: int, capture) -> Table:
    """A finished table of ``users`` (``"friend"`` seats of ``others`` taken by
    ``users[1:]`` in order): made and seated through the services, then its engine
    snapshot replaced by a whole match of Ninos to 50 (seeded) and the table marked
    finished. Enough for what reads only the snapshot (the record, the replay, the
    analysis); the Hand and Move rows are those of the unplayed start."""
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
