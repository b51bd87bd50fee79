"""What one seat may see (R31): the only way anything about a match leaves the engine for
a player, a bot, a page or an API response.

A seat sees its own tiles, the line and its ends, every seat's tile count, the stock's
size, the scoreboard and the public move log, in which a draw shows its tile only to the
seat that drew it. Once a hand is over every hand is shown (R19), with the hand's seed (R6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominoes.deal import seed_sha256
from dominoes.engine import legal_moves, may_act, optional_actions
from dominoes.rules import Rules
from dominoes.scoring import explain, is_zapato
from dominoes.state import Draw, HandState, MatchState, Pass, Play
from dominoes.tiles import Tile


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One public action: ``kind`` is ``"play"``, ``"draw"`` or ``"pass"``. ``tile`` is the
    tile played, or the tile drawn when the viewer drew it (else ``None``); ``end`` is the
    pip of the end a play was placed on (``None`` for the lead)."""

    seat: int
    kind: str
    tile: Tile | None = None
    end: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"seat", "kind", "tile"?, "end"?}``."""
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.tile is not None:
            out["tile"] = str(self.tile)
        if self.kind == "play":
            out["end"] = self.end
        return out


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand as everyone may see it (R19): how it ended, who scored how many
    points, each seat's count and the tiles each seat still held, and the revealed seed."""

    number: int
    end: str
    winners: tuple[int, ...]
    points: int
    counts: tuple[int, ...]
    holdings: tuple[tuple[Tile, ...], ...]
    leader: int
    seed_sha256: str | None
    seed: str | None
    capicua: bool = False
    explanation: dict | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``capicua`` only when the hand ended in one; ``explanation``,
        how the result was decided, ``dominoes.scoring.explain``, when known)."""
        out = {
            "number": self.number,
            "end": self.end,
            "winners": list(self.winners),
            "points": self.points,
            "counts": list(self.counts),
            "holdings": [[str(tile) for tile in tiles] for tiles in self.holdings],
            "leader": self.leader,
            "seed_sha256": self.seed_sha256,
            "seed": self.seed,
        }
        if self.capicua:
            out["capicua"] = True
        if self.explanation is not None:
            out["explanation"] = self.explanation
        return out


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know about a match (R31).

    - ``tiles``: the seat's own tiles; ``tile_counts``: how many each seat holds.
    - ``line``: oriented pairs left to right; ``ends``: ``(left, right)`` or ``None``.
    - ``turn``: the seat to act, ``None`` once the hand or match is over.
    - ``legal_moves``: the seat's plays when it is its turn, else empty.
    - ``log``: the current hand's public actions; ``last_hand``: the previous finished hand
      (or the current one once over), every hand shown.

    Profile extras (``docs/profiles.md``), written by ``to_dict`` only when the profile
    has them, so classic views keep their shape:

    - ``choices``: ``("draw", "pass")`` when the seat may choose to draw or to pass
      (``rules.draw_optional``); ``()`` otherwise. Key ``choices`` only for such profiles.
    - ``lead_seats``: before a lead the pair chooses (``later_lead == "winner_team"``), the
      seats that may lead; either one gets ``legal_moves``. Key ``lead_seats`` only then.
    - ``zapato``: ``rules.zapato`` profiles: whether the won match is a zapato (``None``
      while it is on). Key ``zapato`` only for such profiles.
    - ``left_seats``: the seats that left the current hand, which goes on without them
      (``rules.leavers_sit_out``). Key ``left_seats`` only when one did.
    """

    seat: int
    seats: int
    rules: str
    target: int
    scores: tuple[int, ...]
    hand_number: int
    leader: int
    turn: int | None
    tiles: tuple[Tile, ...]
    tile_counts: tuple[int, ...]
    line: tuple[tuple[int, int], ...]
    ends: tuple[int, int] | None
    stock_size: int
    legal_moves: tuple[Play, ...]
    log: tuple[LogEntry, ...]
    seed_sha256: str | None
    last_hand: HandSummary | None
    match_over: bool
    winners: tuple[int, ...] | None
    outcome: str | None
    abandoned_by: int | None
    choices: tuple[str, ...] = ()
    lead_seats: tuple[int, ...] = ()
    zapato: bool | None = None
    draw_optional: bool = False
    has_zapato: bool = False
    left_seats: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, as the API and pages serve it."""
        out = {
            "seat": self.seat,
            "seats": self.seats,
            "rules": self.rules,
            "target": self.target,
            "scores": list(self.scores),
            "hand_number": self.hand_number,
            "leader": self.leader,
            "turn": self.turn,
            "tiles": [str(tile) for tile in self.tiles],
            "tile_counts": list(self.tile_counts),
            "line": [list(pair) for pair in self.line],
            "ends": list(self.ends) if self.ends else None,
            "stock_size": self.stock_size,
            "legal_moves": [{"tile": str(move.tile), "end": move.end} for move in self.legal_moves],
            "log": [entry.to_dict() for entry in self.log],
            "seed_sha256": self.seed_sha256,
            "last_hand": self.last_hand.to_dict() if self.last_hand else None,
            "match_over": self.match_over,
            "winners": list(self.winners) if self.winners is not None else None,
            "outcome": self.outcome,
            "abandoned_by": self.abandoned_by,
        }
        if self.draw_optional:
            out["choices"] = list(self.choices)
        if self.lead_seats:
            out["lead_seats"] = list(self.lead_seats)
        if self.has_zapato:
            out["zapato"] = self.zapato
        if self.left_seats:
            out["left_seats"] = list(self.left_seats)
        return out


def public_log(hand: HandState, seat: int | None) -> tuple[LogEntry, ...]:
    """The hand's actions as ``seat`` may see them (``None``: a spectator, no drawn tile shown).
    Once the hand is over every drawn tile is shown (R19)."""
    entries = []
    for action in hand.actions:
        if isinstance(action, Play):
            entries.append(LogEntry(action.seat, "play", action.tile, action.end))
        elif isinstance(action, Draw):
            shown = action.tile if (action.seat == seat or hand.is_over) else None
            entries.append(LogEntry(action.seat, "draw", shown))
        elif isinstance(action, Pass):
            entries.append(LogEntry(action.seat, "pass"))
    return tuple(entries)


def summarize_hand(hand: HandState, rules: Rules | None = None) -> HandSummary:
    """The public summary of a finished hand (R19), with how it was scored when the
    hand's ``rules`` are given (``explanation``). Raises ``ValueError`` if unfinished."""
    if hand.result is None:
        raise ValueError("the hand is not over: its tiles are still hidden")
    return HandSummary(
        number=hand.number,
        end=hand.result.end.value,
        winners=hand.result.winners,
        points=hand.result.points,
        counts=hand.result.counts,
        holdings=hand.holdings,
        leader=hand.leader,
        seed_sha256=seed_sha256(hand.seed) if hand.seed is not None else None,
        seed=hand.seed.hex() if hand.seed is not None else None,
        capicua=hand.result.capicua,
        explanation=None
        if rules is None
        else explain(rules, hand.holdings, hand.result, hand.leader, hand.out_seats),
    )


def view_for(match: MatchState, seat: int) -> SeatView:
    """What ``seat`` may see of ``match`` (R31). Raises ``ValueError`` for a seat not at
    the table."""
    if not 0 <= seat < match.seats:
        raise ValueError(f"no seat {seat} at a table of {match.seats}")
    hand = match.hand
    playing = not (match.is_over or hand.is_over)
    last_hand = None
    if hand.is_over:
        last_hand = summarize_hand(hand, match.rules)
    elif len(match.hands) > 1:
        last_hand = summarize_hand(match.hands[-2], match.rules)
    return SeatView(
        seat=seat,
        seats=match.seats,
        rules=match.rules.name,
        target=match.target,
        scores=match.scores,
        hand_number=hand.number,
        leader=hand.leader,
        turn=hand.turn if playing else None,
        tiles=hand.holdings[seat],
        tile_counts=tuple(len(tiles) for tiles in hand.holdings),
        line=hand.line,
        ends=hand.ends,
        stock_size=hand.stock_left,
        legal_moves=tuple(legal_moves(match, seat)) if playing and may_act(match, seat) else (),
        log=public_log(hand, seat),
        seed_sha256=seed_sha256(hand.seed) if hand.seed is not None else None,
        last_hand=last_hand,
        match_over=match.is_over,
        winners=match.winners,
        outcome=match.outcome.value if match.outcome else None,
        abandoned_by=match.abandoned_by,
        choices=tuple(
            "draw" if isinstance(action, Draw) else "pass" for action in optional_actions(match)
        )
        if playing and hand.turn == seat
        else (),
        lead_seats=hand.lead_seats if playing and hand.ends is None else (),
        zapato=is_zapato(match),
        draw_optional=match.rules.draw_optional,
        has_zapato=match.rules.zapato,
        left_seats=hand.out_seats,
    )
