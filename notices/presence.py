"""Presence: whether a player is at a table now (a client of theirs read it within
``PRESENCE_SECONDS``), kept in the cache. A "your turn" e-mail or push is not sent to a
player who is there (issue 15)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from core.faults import CACHE_ERRORS

logger = logging.getLogger(__name__)


def _presence_key(user_id: int, table_id: int) -> str:
    return f"notices:present:{user_id}:{table_id}"


def is_present(user_id: int, table_id: int, now: datetime | None = None) -> bool:
    """Whether a client of user ``user_id`` read table ``table_id`` within the last
    ``PRESENCE_SECONDS`` (the cache keeps the time of the last read)."""
    try:
        seen = cache.get(_presence_key(user_id, table_id))
    except CACHE_ERRORS:  # the cache is away: nobody counts as present, notices go out
        logger.warning("presence unknown: the cache did not answer")
        return False
    now = now or timezone.now()
    return seen is not None and 0 <= now.timestamp() - seen < settings.PRESENCE_SECONDS


def arrived(*, user_id: int, table_id: int) -> None:
    """User ``user_id`` is at table ``table_id`` now (they created it or sat down at it):
    present for ``PRESENCE_SECONDS``, so the first turn, which begins as their write
    commits, is not mailed or pushed to them. One cache write; never fails a write."""
    record(user_id, table_id, timezone.now().timestamp())


def record(user_id: int, table_id: int, now: float) -> None:
    """Write that a client of ``user_id`` was at ``table_id`` at ``now`` (a POSIX
    timestamp, seconds), kept ``PRESENCE_SECONDS``. Never raises: a cache that does not
    answer is logged."""
    try:
        cache.set(_presence_key(user_id, table_id), now, timeout=settings.PRESENCE_SECONDS)
    except CACHE_ERRORS:  # a write never fails for the presence record
        logger.warning("presence not recorded: the cache did not answer")
