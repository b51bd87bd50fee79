"""Rebuilding a table's engine state from its Hand and Move rows (the log is the truth,
``Table.state`` a snapshot)."""

from __future__ import annotations

from dataclasses import replace

from dominoes import deal, match_to_dict
from tables.models import Table
from tables.selectors import match_from_log
from tables.services.transitions import SNAPSHOT_HANDS


def replay_from_rows(table: Table):
    """The engine state rebuilt from the table's Hand and Move rows
    (``tables.selectors.match_from_log``), after checking that each hand's seed deals
    exactly the stored deal and stock (R6)."""
    match = match_from_log(table)
    for hand in match.hands:
        dealt, stock = deal(match.rules, match.seats, hand.seed)
        assert dealt == hand.dealt, f"hand {hand.number}: the seed does not give the stored deal"
        assert stock == hand.stock
    return match


def assert_replays(table_id: int) -> None:
    """The table's snapshot is exactly what its log replays to (scores, hands, holdings):
    the snapshot keeps the last ``SNAPSHOT_HANDS`` hands, the log has them all."""
    table = Table.objects.get(pk=table_id)
    replayed = replay_from_rows(table)
    rebuilt = match_to_dict(replace(replayed, hands=replayed.hands[-SNAPSHOT_HANDS:]))
    snapshot = dict(table.state)
    if snapshot.get("outcome") is None:
        assert rebuilt == snapshot
    else:  # an ended match also carries how it ended; the hands must still agree
        assert rebuilt["hands"] == snapshot["hands"]
