"""Many tables for one player, written in bulk (no match played): for the "my tables"
pages' tests, where only the rows' order and number matter."""

from datetime import timedelta

from django.utils import timezone

from tables.models import Seat, Table
from tables.seating import list_group


def tables(count: int, *, status: str, players, turn_seat=None, start=None) -> list[int]:
    """``count`` two-seat tables at ``status`` held by ``players`` (users, or a bot name),
    one a minute apart going back from ``start``; returns their ids, newest first."""
    start = start or timezone.now()
    rows = Table.objects.bulk_create(
        Table(
            seats=2,
            target=100,
            status=status,
            turn_seat=turn_seat,
            last_move_at=start - timedelta(minutes=n),
            finished_at=start - timedelta(minutes=n) if status == "finished" else None,
            winners=[0] if status == "finished" else None,
            outcome="target" if status == "finished" else "",
        )
        for n in range(count)
    )
    seats = []
    for row in rows:
        for index, holder in enumerate(players):
            bot = holder if isinstance(holder, str) else ""
            user = None if bot else holder
            seats.append(Seat(table=row, index=index, user=user, bot=bot, team=index))
            # each seat's place in its player's list, as the services write it
            seats[-1].list_group = list_group(status, turn_seat, [index])
            seats[-1].list_moved_at = row.last_move_at
    Seat.objects.bulk_create(seats)
    return [row.pk for row in rows]


def many_tables(alice, bob, finished: int) -> dict[str, list[int]]:
    """alice's tables: ``finished`` against Nino, one where it is her turn, one where it
    is bob's; all moved within the last days."""
    now = timezone.now()
    return {
        "finished": tables(finished, status="finished", players=[alice, "nino"], start=now),
        "mine": tables(1, status="playing", players=[alice, bob], turn_seat=0, start=now),
        "bobs": tables(1, status="playing", players=[alice, bob], turn_seat=1, start=now),
    }
