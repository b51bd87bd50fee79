"""Shared helpers for the security tests: seated clients, and rebuilding a table's engine
state from its Hand and Move rows (the log is the truth, ``Table.state`` a snapshot)."""

from __future__ import annotations

from dominoes import deal, match_to_dict
from tables.models import Table
from tables.selectors import match_from_log
from tests.tables.play import create_table, join


def seated_table(api_client_for, users, *, target: int = 100) -> tuple[int, dict, list[str]]:
    """A table created by ``users[0]`` with every other user joined through the share link:
    ``(table_id, {seat index: client}, [used invite tokens])``. The match is running."""
    clients = {0: api_client_for(users[0])}
    created = create_table(clients[0], len(users), ["friend"] * (len(users) - 1), target)
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    for seat, user in enumerate(users[1:], start=1):
        clients[seat] = api_client_for(user)
        join(clients[seat], invites[seat])
    return created["id"], clients, list(invites.values())


def seated_clients(api_client_for, users, *, target: int = 100) -> tuple[int, dict]:
    """``seated_table`` without the tokens: ``(table_id, {seat index: client})``."""
    table_id, clients, _tokens = seated_table(api_client_for, users, target=target)
    return table_id, clients


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
    """The table's snapshot is exactly what its log replays to (scores, hands, holdings)."""
    table = Table.objects.get(pk=table_id)
    rebuilt = match_to_dict(replay_from_rows(table))
    snapshot = dict(table.state)
    if snapshot.get("outcome") is None:
        assert rebuilt == snapshot
    else:  # an ended match also carries how it ended; the hands must still agree
        assert rebuilt["hands"] == snapshot["hands"]
