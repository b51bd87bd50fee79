"""The pair's choice of leader (``later_lead == "winner_team"``, ``cuban``) when a person's
partner is a bot: the bot waits (``transitions.lead_chooser``) until the person leads, or
lets the bot lead with a ``pass`` before the lead, which this module turns into the bot's
lead."""

from __future__ import annotations

from dominoes import MatchState, Play, view_for
from dominoes.bots import choose_play
from tables.models import Seat
from tables.services import transitions


def partner_lead(
    seats: list[Seat], match: MatchState, seat: int, action: str, *, seed: int
) -> Play | None:
    """The bot partner's lead when ``seat`` (the person choosing the pair's leader,
    ``transitions.lead_chooser``) asks for ``action`` ``"pass"``: the person lets the bot
    lead, and the bot chooses its tile from its own view (R31) with ``seed`` (an int, as
    ``play.bot_seed`` makes it). ``None`` for anything else: the move is judged as
    usual."""
    if action != "pass" or transitions.lead_chooser(seats, match) != seat:
        return None
    partner = next(index for index in match.hand.lead_seats if index != seat)
    return choose_play(seats[partner].bot, view_for(match, partner), seed=seed)
