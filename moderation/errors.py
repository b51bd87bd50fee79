"""The refusals of table talk, reports and moderation, each with a stable ``code``. They
are ``tables.errors.TableError`` so the API serves them in the error contract
(``{"code", "detail", ...}``) and the pages show ``detail``."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext
from rest_framework import status

from tables.errors import TableError


def suspended(until) -> TableError:
    """403 ``suspended``: a moderator suspended the player until ``until`` (a datetime,
    also in the body as ``until``); they may finish their running tables, nothing more."""
    shown = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
    return TableError(
        "suspended",
        gettext(
            "Tu cuenta está suspendida hasta el %(until)s: no puedes crear mesas, "
            "sentarte ni escribir en la charla. Puedes terminar tus partidas."
        )
        % {"until": shown},
        status_code=status.HTTP_403_FORBIDDEN,
        extra={"until": until.isoformat()},
    )


def invalid(detail: str, field: str = "text") -> TableError:
    """400 ``invalid`` with ``fields`` naming ``field``: a message that is empty, too long
    or both text and phrase; an action without a reason; a suspension's days."""
    return TableError("invalid", detail, extra={"fields": {field: [detail]}})


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
