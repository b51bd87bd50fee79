"""The engine's immutable state: actions, hands and matches.

Every value here is frozen; ``dominoes.engine`` returns new values instead of changing old
ones, so a state can be shared (by a bot's search, a cache, a test) without copying.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from dominoes.errors import UnreadableRecord
from dominoes.reason import HandReason
from dominoes.rules import Rules, rules_named
from dominoes.tiles import Tile, parse_tile


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` places ``tile`` on the end showing pip ``end`` (R11, R12).

    ``end`` is ``None`` for the lead, or when the tile fits only one way.
    """

    seat: int
    tile: Tile
    end: int | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """``seat`` draws ``tile``, the top of the stock (R14)."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Pass:
    """``seat`` passes: no fitting tile and an empty stock (R15)."""

    seat: int


Action = Play | Draw | Pass


class HandEnd(enum.StrEnum):
    """How a hand ended (R17, R18); ``in_progress`` while it is being played."""

    DOMINO = "domino"
    BLOCKED = "blocked"
    IN_PROGRESS = "in_progress"


class MatchOutcome(enum.StrEnum):
    """Why a match ended: a side reached the target (R25), a player abandoned or was absent
    (R26, R27), or the table stood idle (R28)."""

    TARGET = "target"
    ABANDONED = "abandoned"
    IDLE = "idle"


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a finished hand (R19-R24).

    ``winners``: the seats that scored, sorted (both partners with 4 seats), empty when
    nobody scored. ``points``: what they scored. ``counts``: each seat's count (R19).
    ``capicua``: the domino was a capicúa (profiles with ``capicua_multiplier``; the points
    already include the bonus). ``reason``: how ``dominoes.scoring`` decided it; ``None``
    for a result read back from storage (``dominoes.scoring.reason_of`` gives it again),
    and left out of equality.
    """

    end: HandEnd
    winners: tuple[int, ...]
    points: int
    counts: tuple[int, ...]
    capicua: bool = False
    reason: HandReason | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand: the deal, the play so far and, once over, its result.

    - ``number``: 0 for the match's first hand.
    - ``dealt``/``stock``: the deal (``stock`` in draw order, never shrinking; ``drawn``
      says how many have been taken from its top).
    - ``holdings``: each seat's tiles now, sorted heaviest first.
    - ``line``: the tiles on the table from the left end to the right end, each as an
      oriented pair ``(left pip, right pip)``; ``ends`` is ``(left, right)`` or ``None``
      before the lead.
    - ``turn``: the seat to act; ``leader``: the seat that leads (R7-R10).
    - ``required_lead``: the tile the lead must be (R7-R9), or ``None`` for any tile.
    - ``actions``: every action so far, automatic draws and passes included (R16).
    - ``seed``: the shuffle seed, ``None`` when the deal came from elsewhere.
    - ``lead_seats``: before the lead, the seats any of which may lead (``turn`` first),
      for profiles where a pair chooses its leader (``later_lead == "winner_team"``);
      empty otherwise (only ``turn`` may act).
    - ``departures``: ``(seat, actions)`` for each seat that left the hand while it went
      on (``Rules.leavers_sit_out``): ``actions`` is how many actions the hand had then.
    """

    number: int
    dealt: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    drawn: int
    holdings: tuple[tuple[Tile, ...], ...]
    line: tuple[tuple[int, int], ...]
    ends: tuple[int, int] | None
    turn: int
    leader: int
    required_lead: Tile | None
    actions: tuple[Action, ...]
    result: HandResult | None = None
    seed: bytes | None = None
    lead_seats: tuple[int, ...] = ()
    departures: tuple[tuple[int, int], ...] = ()

    @property
    def is_over(self) -> bool:
        """True once the hand has ended by domino or block."""
        return self.result is not None

    @property
    def passes_since_play(self) -> int:
        """The passes since the last play, by the seats still playing (``draw_optional``'s
        round of passes; a seat that left does not count, ``out_seats``)."""
        passes = 0
        out = self.out_seats
        for action in reversed(self.actions):
            if isinstance(action, Play):
                break
            passes += isinstance(action, Pass) and action.seat not in out
        return passes

    @property
    def out_seats(self) -> tuple[int, ...]:
        """The seats that left the hand (``departures``), in the order they left."""
        return tuple(seat for seat, _ in self.departures)

    @property
    def stock_left(self) -> int:
        """How many tiles remain in the stock."""
        return len(self.stock) - self.drawn


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match: its rules, seats, target, scoreboard, hands played and the current hand.

    - ``scores``: one number per seat in points (partners carry the same number, R25).
    - ``hands``: the hands dealt so far, the last being the current one: all of them, or
      (a service's snapshot, which keeps finished hands elsewhere) only the last few;
      each hand's ``number`` counts from the match's first.
    - ``winners``: the seats that won the match, sorted, or ``None`` while it is on;
      an empty tuple when it ended with no winner (R26, R28).
    - ``outcome``: why the match ended, ``None`` while it is on.
    - ``abandoned_by``: the seat that abandoned or was absent (R26, R27), if any.
    """

    rules: Rules
    seats: int
    target: int
    scores: tuple[int, ...]
    hands: tuple[HandState, ...]
    winners: tuple[int, ...] | None = None
    outcome: MatchOutcome | None = None
    abandoned_by: int | None = None

    @property
    def hand(self) -> HandState:
        """The current (last dealt) hand."""
        return self.hands[-1]

    @property
    def is_over(self) -> bool:
        """True once the match has ended, whatever the reason."""
        return self.outcome is not None


# --- JSON snapshots --------------------------------------------------------------------


def action_to_dict(action: Action) -> dict:
    """An action as a record action (RECORD.md): ``{"seat", "play"|"draw"|"pass", ...}``."""
    if isinstance(action, Play):
        out: dict = {"seat": action.seat, "play": str(action.tile)}
        if action.end is not None:
            out["end"] = action.end
        return out
    if isinstance(action, Draw):
        return {"seat": action.seat, "draw": str(action.tile)}
    return {"seat": action.seat, "pass": True}


def action_from_dict(data: dict, max_pip: int = 6) -> Action:
    """The inverse of ``action_to_dict``; raises ``UnreadableRecord`` on a malformed action."""
    if not isinstance(data, dict) or type(data.get("seat")) is not int:
        raise UnreadableRecord(f"an action needs an integer seat: {data!r}")
    seat = data["seat"]
    if "play" in data:
        end = data.get("end")
        if end is not None and (not isinstance(end, int) or isinstance(end, bool)):
            raise UnreadableRecord(f"an end is a pip number: {data!r}")
        return Play(seat, parse_tile(data["play"], max_pip), end)
    if "draw" in data:
        return Draw(seat, parse_tile(data["draw"], max_pip))
    if "pass" in data:
        return Pass(seat)
    raise UnreadableRecord(f"an action is a play, a draw or a pass: {data!r}")


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(tile) for tile in tiles]


def _parse_tiles(names: list[str], max_pip: int) -> tuple[Tile, ...]:
    return tuple(parse_tile(name, max_pip) for name in names)


def hand_to_dict(hand: HandState) -> dict:
    """A complete, JSON-ready snapshot of a hand (secrets included: server side only).

    ``lead_seats``, ``departures`` and a result's ``capicua`` are written only when set, so classic
    snapshots keep their shape."""
    out = {
        "number": hand.number,
        "dealt": [_tiles(tiles) for tiles in hand.dealt],
        "stock": _tiles(hand.stock),
        "drawn": hand.drawn,
        "holdings": [_tiles(tiles) for tiles in hand.holdings],
        "line": [list(pair) for pair in hand.line],
        "ends": list(hand.ends) if hand.ends else None,
        "turn": hand.turn,
        "leader": hand.leader,
        "required_lead": str(hand.required_lead) if hand.required_lead else None,
        "actions": [action_to_dict(action) for action in hand.actions],
        "result": None
        if hand.result is None
        else {
            "end": hand.result.end.value,
            "winners": list(hand.result.winners),
            "points": hand.result.points,
            "counts": list(hand.result.counts),
        },
        "seed": hand.seed.hex() if hand.seed is not None else None,
    }
    if hand.lead_seats:
        out["lead_seats"] = list(hand.lead_seats)
    if hand.departures:
        out["departures"] = [list(pair) for pair in hand.departures]
    if hand.result is not None and hand.result.capicua:
        out["result"]["capicua"] = True
    return out


def hand_from_dict(data: dict, max_pip: int = 6) -> HandState:
    """The inverse of ``hand_to_dict``."""
    result = data["result"]
    return HandState(
        number=data["number"],
        dealt=tuple(_parse_tiles(tiles, max_pip) for tiles in data["dealt"]),
        stock=_parse_tiles(data["stock"], max_pip),
        drawn=data["drawn"],
        holdings=tuple(_parse_tiles(tiles, max_pip) for tiles in data["holdings"]),
        line=tuple((pair[0], pair[1]) for pair in data["line"]),
        ends=(data["ends"][0], data["ends"][1]) if data["ends"] else None,
        turn=data["turn"],
        leader=data["leader"],
        required_lead=parse_tile(data["required_lead"], max_pip) if data["required_lead"] else None,
        actions=tuple(action_from_dict(action, max_pip) for action in data["actions"]),
        result=None
        if result is None
        else HandResult(
            end=HandEnd(result["end"]),
            winners=tuple(result["winners"]),
            points=result["points"],
            counts=tuple(result["counts"]),
            capicua=result.get("capicua", False),
        ),
        seed=bytes.fromhex(data["seed"]) if data["seed"] is not None else None,
        lead_seats=tuple(data.get("lead_seats", ())),
        departures=tuple((seat, at) for seat, at in data.get("departures", ())),
    )


def match_to_dict(match: MatchState) -> dict:
    """A complete, JSON-ready snapshot of a match, for the server's own storage only."""
    return {
        "rules": match.rules.name,
        "seats": match.seats,
        "target": match.target,
        "scores": list(match.scores),
        "hands": [hand_to_dict(hand) for hand in match.hands],
        "winners": list(match.winners) if match.winners is not None else None,
        "outcome": match.outcome.value if match.outcome else None,
        "abandoned_by": match.abandoned_by,
    }


def match_from_dict(data: dict) -> MatchState:
    """The inverse of ``match_to_dict``; raises ``KeyError`` for an unknown profile."""
    rules = rules_named(data["rules"])
    return MatchState(
        rules=rules,
        seats=data["seats"],
        target=data["target"],
        scores=tuple(data["scores"]),
        hands=tuple(hand_from_dict(hand, rules.max_pip) for hand in data["hands"]),
        winners=tuple(data["winners"]) if data["winners"] is not None else None,
        outcome=MatchOutcome(data["outcome"]) if data["outcome"] else None,
        abandoned_by=data["abandoned_by"],
    )
