"""Who sits where, under which profile: the seating rules every layer asks.

Pure functions of a profile name, a seat count, an engine state and seat indexes; no
query, no write and no task, so selectors, e-mails, forms and help pages use them as
freely as the service layer (``tables.services``) does.
"""

from __future__ import annotations

import re
import secrets

from dominoes import MatchState
from dominoes.engine import may_act
from dominoes.rules import PROFILES
from tables.errors import invite_not_found
from tables.models import BOT_CHOICES

FRIEND = "friend"
BOT_NAMES = tuple(name for name, _label in BOT_CHOICES)
#: Profiles the engine plays but the service cannot seat (none today).
SERVICE_UNSUPPORTED_PROFILES: frozenset[str] = frozenset()

_INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def offered_profiles() -> list[str]:
    """The rule profiles a table may be created with, ``"classic"`` first."""
    return [name for name in PROFILES if name not in SERVICE_UNSUPPORTED_PROFILES]


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
        return sorted({index % 2, index % 2 + 2})
    return [index]


def acting_seat(match: MatchState, mine: list[int]) -> int:
    """Of the seats ``mine`` (one person's, ascending), the one that may act now
    (``dominoes.engine.may_act``), else the first: the hand a two-seat holder plays."""
    return next((index for index in mine if may_act(match, index)), mine[0])


def new_invite_token() -> str:
    """An invite token: 192 random bits from the CSPRNG, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def check_invite_token(token: str) -> None:
    """Refuse (404 ``invite_not_found``) a string that cannot be an invite token, before
    it reaches the database (a NUL byte would make PostgreSQL fail the query)."""
    if not isinstance(token, str) or not _INVITE_TOKEN.fullmatch(token):
        raise invite_not_found()
