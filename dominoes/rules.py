"""Rule profiles: every choice that differs between domino sites, as data.

The engine reads only these fields, so a new profile (RULES.md "Later profiles") is a new
``Rules`` value plus, where a profile needs a new kind of choice, a new field and the one
branch that reads it, never a rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from dominoes.tiles import Tile, full_set


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
    - ``first_lead``: who leads a match's first hand and with what:
      ``"highest_double"`` (R7-R9: the highest double held, else the heaviest tile, and
      that tile must be led); ``"any"`` (seat 0, any tile); ``"lot"`` (each seat draws a
      tile at random from the hand's seed, the heaviest draw leads any tile: see
      ``dominoes.deal.lot_leader``); ``"double"`` (every hand: the holder of the highest
      double leads, with any double it holds; a deal with no double is dealt again).
    - ``partner_tiles_count``: whether a winning team also scores its own (the partner's)
      tiles, on a domino and on a block (R20, R22 say no).

    Fields added for the other sites' profiles (docs/profiles.md); each default is what
    ``classic`` does, and each is read by exactly one branch of the engine:

    - ``excluded_tiles``: tiles taken out of the set (``three_player`` plays without 0-0).
    - ``later_lead``: who leads the hands after the first: ``"rotate"`` (R10: the seat
      after the last leader) or ``"winner_team"`` (the pair that won the last hand, either
      partner; after a hand nobody won, the other pair from the one that led it).
    - ``draw_optional``: a seat with no fitting tile may pass although the stock still
      holds tiles (R14/R16 off); draws and passes then become the seat's own choices, and
      the hand also ends blocked after a whole round of passes.
    - ``stock_on_block``: ``None`` (R18: a hand blocks only once the stock is empty) or
      ``"closer_rival"`` (a hand blocks as soon as no unplayed tile, held or in the stock,
      fits an end; the stock's tiles join the count of the closer's rival).
    - ``blocked_points``: what the winner of a block scores alone (2-3 seats): ``"others"``
      (R21: the sum of the other counts) or ``"differences"`` (the sum of the differences
      between each other count and its own).
    - ``blocked_pairs``: which pair wins a block (partnerships): ``"lower_total"`` (R22:
      the pair whose summed count is lower) or ``"lowest_player"`` (the pair of the
      player with the lowest count; both pairs holding that count is a tie).
    - ``blocked_tie``: a tied block between partnerships: ``"nobody"`` (R22) or
      ``"leader_team"`` (the pair that led the hand wins it).
    - ``capicua_multiplier``: a domino made with a non-double that fits both (different)
      ends scores this many times its points (1: no capicúa bonus).
    - ``zapato``: whether a match won while the losers have 0 points is marked as a
      zapato / chiva in the match result.
    - ``single_hand``: one hand decides the match (its winner wins; a tie has no winner).
    - ``leavers_sit_out``: a player who abandons (R26) or is absent (R27) leaves the hand
      while at least two players stay, and the hand goes on without them: their turns
      are skipped, their tiles are out of play (they fit nothing, count for nobody) and
      they cannot win; when only one player stays, that one wins the match.
    - ``targets``: the match targets a table may choose, in points (R25).
    - ``hands_per_person``: how many hands (seats) one person holds: 2 for
      ``seven_plus_seven`` (each person plays both seats of a pair), else 1.
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
    excluded_tiles: tuple[Tile, ...] = ()
    later_lead: str = "rotate"
    draw_optional: bool = False
    stock_on_block: str | None = None
    blocked_points: str = "others"
    blocked_pairs: str = "lower_total"
    blocked_tie: str = "nobody"
    capicua_multiplier: int = 1
    zapato: bool = False
    single_hand: bool = False
    leavers_sit_out: bool = False
    hands_per_person: int = 1

    def __hash__(self) -> int:
        return hash(self.name)

    def partnerships(self, seats: int) -> bool:
        """True when a table of ``seats`` plays in two partnerships (R2)."""
        return self.partnership_seats == seats

    def tile_set(self) -> tuple[Tile, ...]:
        """The tiles this profile plays with, heaviest first (R1; minus ``excluded_tiles``)."""
        return _tile_set(self.max_pip, self.excluded_tiles)

    def team_of(self, seat: int, seats: int) -> int:
        """The side a seat scores for: its team (0 or 1) with partnerships, else itself."""
        return seat % 2 if self.partnerships(seats) else seat


def _tile_set(max_pip: int, excluded: tuple[Tile, ...]) -> tuple[Tile, ...]:
    if not excluded:
        return full_set(max_pip)
    return tuple(tile for tile in full_set(max_pip) if tile not in excluded)


#: The house rules (RULES.md R1-R31).
CLASSIC = Rules(name="classic")

# The other sites' rule sets (RULES.md "Later profiles"; the choices and the seeds' words
# are in docs/profiles.md).

#: seeds/002: four seats in pairs, first leader by drawn tiles, winners score every tile.
INTERNATIONAL = Rules(
    name="international",
    seat_counts=(4,),
    tiles_per_seat={4: 7},
    redeal_doubles=None,
    draw_from_stock=False,
    first_lead="lot",
    partner_tiles_count=True,
    targets=(200,),
    zapato=True,
)

#: seeds/003 "Dominó Por Parejas" (Federación Española de Dominó).
SPAIN_PAIRS = Rules(
    name="spain_pairs",
    seat_counts=(4,),
    tiles_per_seat={4: 7},
    redeal_doubles=None,
    draw_from_stock=False,
    first_lead="lot",
    partner_tiles_count=True,
    blocked_tie="leader_team",
    targets=(150,),
)

#: seeds/003 "Dominó 7+7": the pairs game, each of two people playing both seats of a pair.
SEVEN_PLUS_SEVEN = replace(SPAIN_PAIRS, name="seven_plus_seven", hands_per_person=2)

#: seeds/003 "Dominó Venezolano" (first lead 6-6 as seeds/002 says for Venezuela).
VENEZUELAN = Rules(
    name="venezuelan",
    seat_counts=(4,),
    tiles_per_seat={4: 7},
    redeal_doubles=None,
    draw_from_stock=False,
    targets=(100,),
    zapato=True,
)

#: seeds/003 "Dominó Para 2".
TWO_PLAYER = Rules(
    name="two_player",
    seat_counts=(2,),
    tiles_per_seat={2: 7},
    partnership_seats=None,
    redeal_doubles=None,
    stock_on_block="closer_rival",
    blocked_points="differences",
    targets=(100,),
)

#: seeds/003 "Dominó Para 3": 27 tiles (no 0-0), 9 each.
THREE_PLAYER = Rules(
    name="three_player",
    seat_counts=(3,),
    tiles_per_seat={3: 9},
    partnership_seats=None,
    redeal_doubles=None,
    draw_from_stock=False,
    excluded_tiles=(Tile(0, 0),),
    blocked_points="differences",
    targets=(100,),
)

#: seeds/003 "Dominó Cubano": double-nine, 10 each, 15 tiles out.
CUBAN = Rules(
    name="cuban",
    max_pip=9,
    seat_counts=(4,),
    tiles_per_seat={4: 10},
    redeal_doubles=None,
    draw_from_stock=False,
    first_lead="lot",
    later_lead="winner_team",
    blocked_pairs="lowest_player",
    blocked_tie="leader_team",
    capicua_multiplier=2,
    targets=(100,),
)

#: seeds/001: the first tile is a double, drawing is optional, one hand decides.
FIRST_DOUBLE = Rules(
    name="first_double",
    seat_counts=(2, 3, 4),
    tiles_per_seat={2: 7, 3: 7, 4: 7},
    partnership_seats=None,
    redeal_doubles=None,
    first_lead="double",
    draw_optional=True,
    single_hand=True,
    leavers_sit_out=True,
    targets=(1,),
)

#: Every profile by name; records name their profile with these keys.
PROFILES: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        CLASSIC,
        INTERNATIONAL,
        SPAIN_PAIRS,
        SEVEN_PLUS_SEVEN,
        VENEZUELAN,
        TWO_PLAYER,
        THREE_PLAYER,
        CUBAN,
        FIRST_DOUBLE,
    )
}


def rules_named(name: str) -> Rules:
    """The profile called ``name``; raises ``KeyError`` for an unknown one."""
    return PROFILES[name]
