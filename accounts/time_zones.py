"""A player's time zone, for every app that writes a time for them: the inbox and the
e-mails (``notices``), the talk and a suspension's end (``moderation``), the table and
history pages (``tables``), the admin (``accounts.middleware``) and the security e-mails
(``accounts.adapter``).

The zone is saved with the player's notice preferences (the settings' "Zona horaria",
``notices.models.NoticePreferences``), which accounts may not import: the notices app
registers the reader of that row here (``read_zones_with``, from its ``AppConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from django.core.exceptions import ImproperlyConfigured
from django.utils.formats import date_format

#: ``reader(user)`` -> ``(zone name, chosen)`` of the player's saved zone, or ``None``
#: while they have no row: ``user`` is a user or a user's id.
ZoneReader = Callable[[object], "tuple[str, bool] | None"]

_readers: list[ZoneReader] = []


def read_zones_with(reader: ZoneReader) -> None:
    """Make ``reader`` the one that answers a player's saved zone (registering the same
    reader again changes nothing; another one replaces it)."""
    _readers[:] = [reader]


def _saved(user) -> tuple[str, bool] | None:
    """``(zone name, chosen)`` of ``user`` (a user or an id), ``None`` without a row.
    Raises ``ImproperlyConfigured`` when no app registered a reader."""
    if not _readers:
        raise ImproperlyConfigured(
            "No time-zone reader: the notices app registers it (notices.apps)."
        )
    return _readers[0](user)


def zone_named(name: str) -> ZoneInfo:
    """The time zone called ``name``; UTC for none, or for a name zoneinfo does not know."""
    try:
        return ZoneInfo(name or "UTC")
    except (KeyError, ValueError):
        return ZoneInfo("UTC")


def time_zone_of(user) -> ZoneInfo:
    """``user``'s time zone (a user or a user's id: the settings' "Zona horaria", else
    the browser's they first came with, ``time_zone_chosen``); UTC while neither was
    given. One query."""
    saved = _saved(user)
    return zone_named(saved[0] if saved else "")


def chosen_time_zone(user) -> str:
    """The name of ``user``'s time zone once they (or their browser) chose one
    (``time_zone_chosen``), for a page's script to write times in it as the inbox does;
    ``""`` while none was chosen or for a name zoneinfo does not know (the script then
    keeps the browser's zone). One query."""
    saved = _saved(user)
    if saved is None or not saved[1] or zone_named(saved[0]).key != saved[0]:
        return ""
    return saved[0]


def written_in_zone(when: datetime, zone: ZoneInfo) -> str:
    """``when`` (an aware datetime) as a notice's sentence writes it, in the active
    language: in ``zone`` and naming it as the deadline e-mails do ("5 de diciembre de
    2025 a las 13:30 (America/Havana)", "December 5, 2025, 1:30 p.m. (UTC)")."""
    return f"{date_format(when.astimezone(zone), 'DATETIME_FORMAT')} ({zone.key})"
