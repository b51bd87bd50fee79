"""``{% invite_seating invite as seating %}``: what an invitation says about pairs (R2).

``invite`` is ``tables.selectors.invite_preview``'s answer. At a partnership table the
invitation names the pair of the offered seat ("A": seats 1 and 3, "B": 2 and 4, as the
table page says them) and who sits in the partner seat: a person, a bot or nobody yet.
"""

from __future__ import annotations

from typing import Any

from django import template

from tables.seating import pair_letter

register = template.Library()


@register.simple_tag
def invite_seating(invite: dict[str, Any]) -> dict[str, Any]:
    """``{"pair", "players", "partner", "partner_number", "two_hands"}``: ``pair`` the
    offered seat's pair letter ("" without partnerships), ``players`` the invitation's
    players each with its ``pair`` letter, ``partner`` the partner seat's player (None
    when the invite takes both seats of the pair, ``seven_plus_seven``) and
    ``partner_number`` and ``seat_number`` those seats counted from 1."""
    rules, seats, seat = invite["rules"], invite["seats"], invite["seat"]
    players = [
        {**player, "pair": pair_letter(rules, seats, player["team"])}
        for player in invite["players"]
    ]
    by_seat = {player["seat"]: player for player in players}
    pair = by_seat[seat]["pair"]
    two_hands = len(invite["hands"]) > 1
    partner_index = (seat + 2) % 4
    partner = by_seat.get(partner_index) if pair and not two_hands else None
    return {
        "pair": pair,
        "players": players,
        "partner": partner,
        "partner_number": partner_index + 1,
        "seat_number": seat + 1,
        "two_hands": two_hands,
    }
