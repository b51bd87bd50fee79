"""The public move log and the match record of a table, from its Hand and Move rows
(R31: finished hands only in the record; every seat's own view for the log)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import (
    Prefetch,
    QuerySet,
)

from dominoes import (
    Draw,
    MatchState,
    Pass,
    Play,
    parse_tile,
    recorded_step,
    start_hand,
)
from dominoes.record import FORMAT as RECORD_FORMAT
from dominoes.rules import rules_named
from dominoes.state import Action, action_to_dict
from tables.models import Hand, Move, Seat, Table


def public_moves(
    table: Table,
    seat: Seat | Collection[int],
    after_version: int | None = None,
    rows: list[Move] | None = None,
) -> list[dict[str, Any]]:
    """The move log of every hand as ``seat`` may see it (R31): a draw's tile is shown to
    the seat that drew it, and to everyone once its hand has ended. ``seat`` may be the
    indexes of every seat one user holds (``seven_plus_seven``): their own draws. With
    ``after_version``, only the moves of later writes, and others' draws stay hidden.
    ``rows``: those Move rows already in memory (with their ``hand``), in order: the
    moves the write that just ran saved, so its answer reads nothing back."""
    own = {seat.index} if isinstance(seat, Seat) else set(seat)
    if rows is None:
        moves = Move.objects.filter(table=table).select_related("hand")
        if after_version is not None:
            moves = moves.filter(version__gt=after_version)
        rows = moves.order_by("hand__number", "sequence")
    log = []
    for move in rows:
        ended = move.hand.ended_at is not None and after_version is None
        hidden = move.kind == "draw" and move.seat not in own and not ended
        log.append(
            {
                "hand": move.hand.number,
                "sequence": move.sequence,
                "seat": move.seat,
                "kind": move.kind,
                "tile": None if hidden or move.kind == "pass" else move.tile,
                "end": move.end,
                "automatic": move.automatic,
                "created_at": move.created_at,
            }
        )
    return log


def moves_after(table: Table, version: int) -> list[Move]:
    """``table``'s Move rows made by writes after ``version``, with their hands, in log
    order (one query): the ``moves`` of ``selectors.table_view_for_user`` for every seat
    that has seen ``version`` or later (``tables.api.waits`` reads them once for all)."""
    rows = Move.objects.filter(table=table, version__gt=version).select_related("hand")
    return list(rows.order_by("hand__number", "sequence"))


def table_record(table: Table) -> dict[str, Any]:
    """The match record (``dominoes-record/1``) of the table's finished hands: the hand in
    play is left out until it ends, so no hidden tile leaves the server (R31). Built from
    the Hand and Move rows (two queries), where finished hands live: the snapshot keeps
    only the last two (``tables.services.transitions.SNAPSHOT_HANDS``)."""
    record = match_to_record_empty(table)
    if table.state is None:
        return record
    max_pip = rules_named(table.rules).max_pip
    moves = Prefetch("moves", queryset=Move.objects.order_by("sequence"))
    hands = Hand.objects.filter(table=table, ended_at__isnull=False).prefetch_related(moves)
    for hand in hands.order_by("number"):
        entry: dict[str, Any] = {
            "dealt": hand.dealt,
            "stock": hand.stock,
            "seed_sha256": hand.seed_sha256,
            "seed": hand.seed,
            "actions": [action_to_dict(_action(move, max_pip)) for move in hand.moves.all()],
        }
        if hand.departures:
            entry["left"] = [{"seat": seat, "after": after} for seat, after in hand.departures]
        record["hands"].append(entry)
    return record


def match_to_record_empty(table: Table) -> dict[str, Any]:
    """The record of a table whose match has not started: no hands yet."""
    return {
        "format": RECORD_FORMAT,
        "rules": table.rules,
        "seats": table.seats,
        "target": table.target,
        "hands": [],
    }


def hands_played(table: Table) -> QuerySet[Hand]:
    """The table's finished hands, oldest first (for summaries and the admin)."""
    return Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number")


def match_from_log(table: Table) -> MatchState | None:
    """Rebuild the engine state from the Hand and Move rows alone (the log is the truth;
    ``Table.state`` is a snapshot of it). ``None`` before the match starts. A seat that
    left a hand that went on (``Hand.departures``, ``rules.leavers_sit_out``) leaves it
    again after the same number of actions (``dominoes.recorded_step``), so the hands match the
    snapshot at every moment. Other early endings (R26-R28) are not in the log: compare
    ``hands`` and ``scores`` with the snapshot."""
    hands = list(Hand.objects.filter(table=table).order_by("number").prefetch_related("moves"))
    if not hands:
        return None
    rules = rules_named(table.rules)
    match = MatchState(
        rules=rules, seats=table.seats, target=table.target, scores=(0,) * table.seats, hands=()
    )
    for hand in hands:
        match = start_hand(
            match,
            seed=bytes.fromhex(hand.seed),
            dealt=[[parse_tile(tile, rules.max_pip) for tile in tiles] for tiles in hand.dealt],
            stock=[parse_tile(tile, rules.max_pip) for tile in hand.stock],
        )
        moves = sorted(hand.moves.all(), key=lambda move: move.sequence)
        actions = [_action(move, rules.max_pip) for move in moves]
        for index in range(len(actions) + 1):
            match = recorded_step(match, actions, hand.departures, index)
    return match


def _action(move: Move, max_pip: int) -> Action:
    if move.kind == Move.Kind.PLAY:
        return Play(move.seat, parse_tile(move.tile, max_pip), move.end)
    if move.kind == Move.Kind.DRAW:
        return Draw(move.seat, parse_tile(move.tile, max_pip))
    return Pass(move.seat)
