"""Presence: when a client of a player last read a table, kept in the cache. A player is
*at* the table while that read is less than ``PRESENCE_SECONDS`` old, and has *seen* what
happened there at a moment when a read came at or after it. An e-mail or a push is
decided when it is due (``notices.services.notice_seen``): it waits while the player is
at the table, and is dropped once they saw it; a look moments before a turn began does
not count as seeing it."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from core.faults import CACHE_ERRORS

logger = logging.getLogger(__name__)


def _presence_key(user_id: int, table_id: int) -> str:
    return f"notices:present:{user_id}:{table_id}"


#: How long the time of a player's last read of a table is kept (seconds): longer than
#: any turn lasts (the longest move time is 7 days, R27), so an e-mail that quiet hours or
#: the turn e-mails' interval held back still knows whether its turn was seen.
SEEN_KEPT_SECONDS = 8 * 86400


def last_seen(user_id: int, table_id: int) -> float | None:
    """When a client of user ``user_id`` last read table ``table_id`` (a POSIX timestamp,
    seconds), ``None`` when not within ``SEEN_KEPT_SECONDS`` or when the cache does not
    answer (then nobody counts as present or as having seen it: the notices go out)."""
    try:
        return cache.get(_presence_key(user_id, table_id))
    except CACHE_ERRORS:
        logger.warning("presence unknown: the cache did not answer")
        return None


def is_present(user_id: int, table_id: int, now: datetime | None = None) -> bool:
    """Whether a client of user ``user_id`` read table ``table_id`` within the last
    ``PRESENCE_SECONDS`` (the cache keeps the time of the last read)."""
    return present_until(user_id, table_id, now) is not None


def present_until(user_id: int, table_id: int, now: datetime | None = None) -> datetime | None:
    """When user ``user_id`` stops counting as at table ``table_id`` (their last read plus
    ``PRESENCE_SECONDS``), or ``None`` when they are not there at ``now``."""
    seen = last_seen(user_id, table_id)
    now = now or timezone.now()
    if seen is None or not 0 <= now.timestamp() - seen < settings.PRESENCE_SECONDS:
        return None
    return datetime.fromtimestamp(seen + settings.PRESENCE_SECONDS, tz=UTC)


def seen_since(user_id: int, table_id: int, since: datetime) -> bool:
    """Whether a client of user ``user_id`` read table ``table_id`` at ``since`` or later
    (within ``SEEN_KEPT_SECONDS``)."""
    seen = last_seen(user_id, table_id)
    return seen is not None and seen >= since.timestamp()


def arrived(*, user_id: int, table_id: int) -> None:
    """User ``user_id`` is at table ``table_id`` now (they created it or sat down at it):
    present for ``PRESENCE_SECONDS``, so the first turn, which begins as their write
    commits, is not mailed or pushed to them. One cache write; never fails a write."""
    record(user_id, table_id, timezone.now().timestamp())


def record(user_id: int, table_id: int, now: float) -> None:
    """Write that a client of ``user_id`` was at ``table_id`` at ``now`` (a POSIX
    timestamp, seconds), kept ``SEEN_KEPT_SECONDS``. Never raises: a cache that does not
    answer is logged."""
    try:
        cache.set(_presence_key(user_id, table_id), now, timeout=SEEN_KEPT_SECONDS)
    except CACHE_ERRORS:  # a write never fails for the presence record
        logger.warning("presence not recorded: the cache did not answer")


def record_many(reads: dict[tuple[int, int], float]) -> None:
    """``record`` for many reads at once, ``{(user_id, table_id): timestamp}``: one cache
    call. Never raises: a cache that does not answer is logged."""
    if not reads:
        return
    try:
        cache.set_many(
            {_presence_key(user, table): at for (user, table), at in reads.items()},
            timeout=SEEN_KEPT_SECONDS,
        )
    except CACHE_ERRORS:  # a write never fails for the presence record
        logger.warning("presence not recorded: the cache did not answer")
