"""The move time of a table (R27): how long the seat to act has before it loses by
absence. The creator of a friends' table picks 1, 2, 3 or 7 days; every other table
(against bots only, and tables from before the choice existed) has ``ABSENCE_SECONDS``
(2 days unless configured). ``Table.move_seconds`` stores it; the turn's deadline, the
reminder, the absence sweep, the API and the pages read it from there.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext, ngettext

#: The move times a creator may choose, in days (2 is the form's default, as R27 says).
MOVE_DAYS = (1, 2, 3, 7)
#: Seconds in a day.
DAY = 86400


def default_move_seconds() -> int:
    """The move time of a table whose creator chose none: ``ABSENCE_SECONDS`` (seconds)."""
    return settings.ABSENCE_SECONDS


def reminder_seconds(move_seconds: int) -> int:
    """How long before the deadline the "your time is running out" reminder goes, in
    seconds: ``REMINDER_SECONDS`` (24 h), but never more than half the move time, so a
    1-day table is reminded with 12 h left, not the moment the turn begins."""
    return min(settings.REMINDER_SECONDS, move_seconds // 2)


def time_left_sentence(seconds: float) -> str:
    """``"Queda 1 día y 23 h"``, ``"Quedan 2 días y 3 h"``, ``"Queda menos de un minuto"``
    ("1 day and 23 h left"): the verb agrees with the number the label starts with, as
    the table page's status line does (``T.time_left``). Past the deadline (``seconds``
    of 0 or less): ``"Turno por vencer"``, as the table page says until the absence sweep
    forfeits the turn (R27)."""
    if seconds <= 0:
        return gettext("Turno por vencer")
    label, leading = _time_left(seconds)
    return ngettext("Queda %(time)s", "Quedan %(time)s", leading) % {"time": label}


def _time_left(seconds: float) -> tuple[str, int]:
    """What is left of a turn, as the table page writes it (``static/js/table/state.js``,
    ``timeLeft``), so that "Mis mesas" and the table agree: ``"1 día y 23 h"`` from 24 h
    up, ``"5 h 7 min"``, ``"12 min"``, ``"menos de un minuto"``; and the number it starts
    with (1 for "menos de un minuto"), which the verb before it agrees with. ``seconds``
    until the deadline (negative: past it, read as less than a minute)."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return gettext("menos de un minuto"), 1
    hours = minutes // 60
    if hours < 1:
        return gettext("%(m)s min") % {"m": minutes}, minutes
    if hours < 24:
        return gettext("%(h)s h %(m)s min") % {"h": hours, "m": minutes % 60}, hours
    days = hours // 24
    label = ngettext("%(d)s día y %(h)s h", "%(d)s días y %(h)s h", days)
    return label % {"d": days, "h": hours % 24}, days


def move_time_label(move_seconds: int) -> str:
    """``"2 días"`` (``"2 days"``): the move time in whole days, else in hours (a
    configured ``ABSENCE_SECONDS`` that is not whole days), in the active language."""
    if move_seconds % DAY == 0:
        days = move_seconds // DAY
        return ngettext("%(n)d día", "%(n)d días", days) % {"n": days}
    hours = max(1, move_seconds // 3600)
    return ngettext("%(n)d hora", "%(n)d horas", hours) % {"n": hours}


def move_time_sentence(move_seconds: int) -> str:
    """``"Tiempo por jugada: 2 días"``: the line the table page shows."""
    return gettext("Tiempo por jugada: %(time)s") % {"time": move_time_label(move_seconds)}


def overdue(table, now: datetime | None = None) -> bool:
    """Whether the human seat to act at ``table`` (a ``Table``) is past its ``deadline``
    (R27) at ``now`` (default: the present): the absence rule applies, but a read does
    not apply it. The absence sweep (``tables.tasks.sweep_absences``) or the next move
    forfeits the turn; until then the table reads as stored, ``status`` ``playing``."""
    if table.status != "playing" or table.deadline is None:
        return False
    return (now or timezone.now()) > table.deadline
