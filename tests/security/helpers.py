"""Shared helpers for the security tests: seated clients, and rebuilding a table's engine
state from its Hand and Move rows (the log is the truth, ``Table.state`` a snapshot)."""

from __future__ import annotations

from dominoes import (
    Draw,
    MatchState,
    Pass,
    Play,
    apply,
    match_from_dict,
    match_to_dict,
    parse_tile,
    start_hand,
)
from tables.models import Hand, Move, Table
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


def _action(move: Move):
    if move.kind == "play":
        return Play(move.seat, parse_tile(move.tile), move.end)
    if move.kind == "draw":
        return Draw(move.seat, parse_tile(move.tile))
    return Pass(move.seat)


def replay_from_rows(table: Table):
    """The engine state rebuilt from the table's Hand rows (dealt again from each hand's
    seed, which must reproduce the stored deal) and Move rows, in order."""
    snapshot = match_from_dict(table.state)
    match = MatchState(
        rules=snapshot.rules,
        seats=table.seats,
        target=table.target,
        scores=(0,) * table.seats,
        hands=(),
    )
    for hand in Hand.objects.filter(table=table).order_by("number"):
        match = start_hand(match, seed=bytes.fromhex(hand.seed))
        dealt = [[str(tile) for tile in tiles] for tiles in match.hand.dealt]
        assert dealt == hand.dealt, f"hand {hand.number}: the seed does not give the stored deal"
        assert [str(tile) for tile in match.hand.stock] == hand.stock
        for move in Move.objects.filter(hand=hand).order_by("sequence"):
            match = apply(match, _action(move))
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
