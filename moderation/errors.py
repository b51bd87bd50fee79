"""The refusals of table talk, reports and moderation, each with a stable ``code``. They
are ``tables.errors.TableError`` so the API serves them in the error contract
(``{"code", "detail", ...}``) and the pages show ``detail``."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.utils.translation import gettext
from rest_framework import status

from accounts.time_zones import written_in_zone
from tables.errors import TableError


def suspension_end_for_api(until: datetime) -> str:
    """A suspension's end (``ModerationAction.until``, an aware datetime) as the API writes
    it, ISO 8601 in UTC (``"2031-03-05T02:30:00+00:00"``): the 403 ``suspended`` body's
    ``until`` and ``/api/v1/me/``'s ``suspended_until`` say it alike. Raises nothing."""
    return until.astimezone(UTC).isoformat()


def suspended(until: datetime, zone: ZoneInfo) -> TableError:
    """403 ``suspended``: a moderator suspended the player until ``until`` (an aware
    datetime); they may finish their running tables, nothing more. ``detail`` writes the
    end in ``zone``, the player's saved one, and names it as their notices do ("11 de
    diciembre de 2026 a las 17:00 (America/Havana)": ``accounts.time_zones.written_in_zone``);
    the body's ``until`` is ISO 8601 in UTC, for a program (``suspension_end_for_api``)."""
    return TableError(
        "suspended",
        gettext(
            "Tu cuenta está suspendida hasta el %(until)s: no puedes crear mesas, "
            "sentarte ni escribir en la charla. Puedes terminar tus partidas."
        )
        % {"until": written_in_zone(until, zone)},
        status_code=status.HTTP_403_FORBIDDEN,
        extra={"until": suspension_end_for_api(until)},
    )


def invalid(detail: str, field: str = "text") -> TableError:
    """400 ``invalid`` with ``fields`` naming ``field``: a message that is empty, too long
    or both text and phrase; an action without a reason; a suspension's days."""
    return TableError("invalid", detail, extra={"fields": {field: [detail]}})


def protected_account(detail: str) -> TableError:
    """403 ``protected_account``: a moderator tried to act on an account no moderator may
    act on (a superuser's, a staff member's, their own: ``moderation.services.protection``);
    ``detail`` says which."""
    return TableError("protected_account", detail, status_code=status.HTTP_403_FORBIDDEN)


def not_muted() -> TableError:
    """404 ``not_found``: no such mute of yours."""
    return TableError("not_found", gettext("No encontrado."), status_code=404)


def nothing_to_report() -> TableError:
    """400 ``invalid``: a report names neither a message nor a seat held by a person."""
    detail = gettext("Indica el mensaje o el asiento que reportas.")
    return TableError("invalid", detail)


def not_yourself() -> TableError:
    """400 ``invalid``: one does not report or mute oneself."""
    return TableError("invalid", gettext("No puedes hacerlo contigo."))
