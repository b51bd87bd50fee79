"""Why a finished hand scored as it did (R17-R24): the reason ``dominoes.scoring`` gives
with every result it decides, as data the pages put into words without deciding again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: How a hand's points were decided (``HandReason.decided_by``).
DECIDED_BY = (
    "domino",  # R20: the seat that went out scores
    "lowest_count",  # R21: the lowest count, alone
    "lowest_tiles",  # R23: a tie for the lowest count broken by tile values
    "lower_pair_total",  # R22: the pair with the lower summed count
    "lowest_player",  # R22, blocked_pairs "lowest_player": the pair of the lowest count
    "pair_that_led",  # R22, blocked_tie "leader_team": a tie goes to the pair that led
    "nobody",  # R24: a tie nothing breaks, or a win worth nothing
)


@dataclass(frozen=True, slots=True)
class HandReason:
    """How a hand's result was decided, in the numbers the decision compared.

    - ``end``: ``"domino"`` (R17) or ``"blocked"`` (R18); ``rule``: the rule that decided
      the points (``"R20"``-``"R23"``); ``rules``: every rule id applied, in order
      (``"R24"`` when nobody scored); ``decided_by``: one of ``DECIDED_BY``.
    - ``counts``: each seat's count (R19); ``winners``; ``points`` (after a multiplier).
    - ``scored_seats``: the seats whose counts make the points; ``addends``: the numbers
      summed into them before a ``multiplier`` (the scored seats' counts, or each
      difference with ``differences``); ``scored``: ``"rival"``, ``"rivals"`` or
      ``"everyone"`` (the winners' own tiles too, ``Rules.partner_tiles_count``).
    - Domino: ``went_out``, the seat that played its last tile, and ``uncounted_partner``,
      its partner whose tiles did not count (pairs without ``partner_tiles_count``).
    - Blocked: ``lowest``, the lowest count of the seats playing, and ``lowest_seat``, the
      winner holding it; ``tied`` and ``tie_break`` (each tied seat with its tile values,
      lowest first, compared in order, R23) when seats shared it alone.
    - Pairs: ``team_counts`` (team 0, team 1 as ``Rules.team_of`` names them).
    - ``multiplier``: the capicúa's factor, only when one scored; ``out``: seats that left.
    """

    end: str
    rule: str
    decided_by: str
    counts: tuple[int, ...]
    winners: tuple[int, ...]
    points: int
    scored_seats: tuple[int, ...] = ()
    addends: tuple[int, ...] = ()
    scored: str = "rivals"
    went_out: int | None = None
    uncounted_partner: int | None = None
    lowest: int | None = None
    lowest_seat: int | None = None
    tied: tuple[int, ...] = ()
    tie_break: tuple[tuple[int, tuple[int, ...]], ...] = ()
    team_counts: tuple[int, int] | None = None
    differences: bool = False
    multiplier: int | None = None
    out: tuple[int, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule id the decision applied: how the hand ended, the count, the rule
        that decided, and R24 when nobody scored."""
        ended = "R17" if self.end == "domino" else "R18"
        ids = [ended, "R19"]
        if self.rule == "R23":
            ids.append("R21")
        ids.append(self.rule)
        if not self.winners:
            ids.append("R24")
        return tuple(ids)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready parts for a page to put into words; the optional parts appear only
        when they apply (``team_counts`` with pairs, ``lowest`` when blocked, ``tied``
        and ``tie_break`` on a tie, ``differences``, ``multiplier``, ``out``)."""
        info: dict[str, Any] = {
            "end": self.end,
            "rule": self.rule,
            "rules": list(self.rules),
            "decided_by": self.decided_by,
            "counts": list(self.counts),
            "winners": list(self.winners),
            "points": self.points,
            "scored_seats": list(self.scored_seats),
            "addends": list(self.addends),
        }
        if self.winners:
            info["scored"] = self.scored
        optional = {
            "went_out": self.went_out,
            "uncounted_partner": self.uncounted_partner,
            "lowest": self.lowest,
            "lowest_seat": self.lowest_seat,
            "team_counts": list(self.team_counts) if self.team_counts else None,
            "multiplier": self.multiplier,
        }
        info.update({key: value for key, value in optional.items() if value is not None})
        if self.tied:
            info["tied"] = list(self.tied)
            info["tie_break"] = [
                {"seat": seat, "values": list(values)} for seat, values in self.tie_break
            ]
        if self.differences:
            info["differences"] = True
        if self.out:
            info["out"] = list(self.out)
        return info
