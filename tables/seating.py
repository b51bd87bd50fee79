"""Who sits where, under which profile: the seating rules every layer asks.

Pure functions of a profile name, a seat count, an engine state and seat indexes; no
query, no write and no task, so selectors, e-mails, forms and help pages use them as
freely as the service layer (``tables.services``) does.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence

from dominoes import MatchState
from dominoes.engine import may_act
from dominoes.rules import PROFILES
from dominoes.seats import seat_after
from tables.errors import invite_not_found, no_such_seat
from tables.models import BOT_CHOICES, Seat

FRIEND = "friend"
BOT_NAMES = tuple(name for name, _label in BOT_CHOICES)

_INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def offered_profiles() -> list[str]:
    """The rule profiles a table may be created with, ``"classic"`` first."""
    return list(PROFILES)


def holds_two_hands(rules: str) -> bool:
    """True when one person holds both seats of a pair, ``i`` and ``i + 2``, under profile
    ``rules`` (``Rules.hands_per_person`` is 2: ``seven_plus_seven``, docs/profiles.md):
    the creator holds 0 and 2, the rival pair's 1 and 3 are one friend (one invite link)
    or a bot at each seat. False for a name that is no profile."""
    profile = PROFILES.get(rules)
    return profile is not None and profile.hands_per_person == 2


def hand_seats(rules: str, seats: int, index: int) -> list[int]:
    """The seats the person at seat ``index`` holds (R2 partners sit opposite): both seats
    of the pair in a two-hand profile, else ``[index]``."""
    if holds_two_hands(rules) and seats == 4:
        return sorted({index, seat_after(index, seats, 2)})
    return [index]


def pair_letter(rules: str, seats: int, team: int) -> str:
    """The pair a seat of ``team`` plays for, as the pages name it: ``"A"`` (seats 1 and
    3, counted from 1) or ``"B"`` (2 and 4) at a partnership table (R2), else ``""``: a
    4-seat ``first_double`` table plays every seat for itself."""
    profile = PROFILES.get(rules)
    return "AB"[team] if profile is not None and profile.partnerships(seats) else ""


def creators_partner(rules: str, seats: int, seat: int) -> bool:
    """True when ``seat`` (counted from 0) is the partner of the creator's seat 0 (R2):
    seat 2 of a four-seat table in partnerships; never at a 4-seat ``first_double``
    table, where every seat plays for itself."""
    return seats == 4 and seat == 2 and bool(pair_letter(rules, seats, 0))


def acting_seat(match: MatchState, mine: list[int]) -> int:
    """Of the seats ``mine`` (one person's, ascending), the one that may act now
    (``dominoes.engine.may_act``), else the first: the hand a two-seat holder plays."""
    return next((index for index in mine if may_act(match, index)), mine[0])


#: The groups of "my tables" (``Seat.list_group``), in list order.
LIST_MY_TURN, LIST_PLAYING, LIST_WAITING, LIST_OVER = 0, 1, 2, 3


def list_group(status: str, turn_seat: int | None, mine: Sequence[int]) -> int:
    """The group a table falls in in its player's "my tables" list (``tables.listing``):
    ``LIST_MY_TURN`` (0) when it is playing and the seat to act (``turn_seat``) is one of
    ``mine`` (the player's seat indexes), ``LIST_PLAYING`` (1) for another playing table,
    ``LIST_WAITING`` (2) while it waits for players, ``LIST_OVER`` (3) once finished or
    closed."""
    if status == "playing":
        return LIST_MY_TURN if turn_seat is not None and turn_seat in mine else LIST_PLAYING
    return LIST_WAITING if status == "waiting" else LIST_OVER


def check_seat_exists(seat: int, seats: int) -> None:
    """Raise ``no_such_seat`` (400, ``fields.seat``) when ``seat``, named in
    a request's body (a move's, a mute's, a report's), is none of a table's ``seats``
    seats, numbered from 0."""
    if not 0 <= seat < seats:
        raise no_such_seat(seat, seats)


def new_invite_token() -> str:
    """An invite token: 192 random bits from the CSPRNG, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def invite_sha256(token: str) -> str:
    """The hex SHA-256 of an invite token: what a taken seat keeps of the link it was
    taken with (``Seat.joined_invite_sha256``), so the link leads its holder back."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_invite_token(token: str) -> None:
    """Refuse (404 ``invite_not_found``) a string that cannot be an invite token, before
    it reaches the database (a NUL byte would make PostgreSQL fail the query)."""
    if not isinstance(token, str) or not _INVITE_TOKEN.fullmatch(token):
        raise invite_not_found()


_ROMAN = ("", "", " II", " III", " IV")


def bot_name(bot: str, ordinal: int = 1) -> str:
    """The name of the ``ordinal``-th (1-based, up to 4) player a bot ``bot`` (a
    ``BOT_CHOICES`` key) is at one table: ``"Nino"``, then ``"Nino II"``, ``"Nino III"``."""
    return dict(BOT_CHOICES)[bot] + _ROMAN[ordinal]


def player_name(seat: Seat, seats: Sequence[Seat], rules: str) -> str:
    """The name of ``seat``'s player at a table of ``seats`` (all of them, by index) under
    profile ``rules``, as pages, the API, the log and e-mails show it: the username, or
    the bot's name numbered when the same bot is more than one player at the table
    ("Nino", "Nino II"). A bot holding both hands of a pair (``seven_plus_seven``) is one
    player, with one name."""
    if not seat.bot:
        return seat.display_name
    count = len(seats)
    own = set(hand_seats(rules, count, seat.index))
    earlier = {
        min(hand_seats(rules, count, other.index))
        for other in seats
        if other.bot == seat.bot and other.index < seat.index and other.index not in own
    }
    return bot_name(seat.bot, len(earlier) + 1)
