"""Rule profiles: every choice that differs between domino sites, as data.

The engine reads only these fields, so a new profile (RULES.md "Later profiles") is a new
``Rules`` value plus, where a profile needs a new kind of choice, a new field and the one
branch that reads it, never a rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule profile.

    Fields:
    - ``name``: the profile id written in records (``"classic"``).
    - ``max_pip``: the set's highest pip (6 for double-six, R1).
    - ``seat_counts``: the table sizes allowed (R2).
    - ``tiles_per_seat``: tiles dealt to each seat, by table size (R4).
    - ``partnership_seats``: the table size played in partnerships, opposite seats as
      partners (R2); ``None`` for never.
    - ``redeal_doubles``: a seat dealt this many doubles or more forces a redeal (R5);
      ``None`` for never.
    - ``draw_from_stock``: whether a seat with no fitting tile draws from the stock (R14);
      when ``False`` the undealt tiles stay out and the seat passes.
    - ``first_lead``: ``"highest_double"`` (R7-R9: the highest double held, else the
      heaviest tile, and that tile must be led) or ``"any"``.
    - ``partner_tiles_count``: whether the partner's count is scored by a team that
      dominoes (R20 says no).
    - ``targets``: the match targets a table may choose, in points (R25).
    """

    name: str
    max_pip: int = 6
    seat_counts: tuple[int, ...] = (2, 3, 4)
    tiles_per_seat: dict[int, int] = field(default_factory=lambda: {2: 7, 3: 7, 4: 7})
    partnership_seats: int | None = 4
    redeal_doubles: int | None = 4
    draw_from_stock: bool = True
    first_lead: str = "highest_double"
    partner_tiles_count: bool = False
    targets: tuple[int, ...] = (50, 100)

    def __hash__(self) -> int:
        return hash(self.name)

    def partnerships(self, seats: int) -> bool:
        """True when a table of ``seats`` plays in two partnerships (R2)."""
        return self.partnership_seats == seats

    def team_of(self, seat: int, seats: int) -> int:
        """The side a seat scores for: its team (0 or 1) with partnerships, else itself."""
        return seat % 2 if self.partnerships(seats) else seat


#: The house rules (RULES.md R1-R31).
CLASSIC = Rules(name="classic")

#: Every profile by name; records name their profile with these keys.
PROFILES: dict[str, Rules] = {CLASSIC.name: CLASSIC}


def rules_named(name: str) -> Rules:
    """The profile called ``name``; raises ``KeyError`` for an unknown one."""
    return PROFILES[name]
