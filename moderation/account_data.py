"""What moderation adds to a player's account answers (``accounts.hooks``, registered in
``moderation.apps``): /me's ``suspended_until`` and the data download's ``talk_messages``
and ``reports_made``."""

from __future__ import annotations

from moderation.errors import suspension_end_for_api
from moderation.models import Report, TalkMessage
from moderation.selectors import active_suspension


def suspended_until(user) -> str | None:
    """While a moderator's suspension of ``user`` runs, when it ends (ISO 8601, UTC:
    ``suspension_end_for_api``); else ``None``. One query."""
    suspension = active_suspension(user)
    if suspension is None:
        return None
    return suspension_end_for_api(suspension.until)


def talk_messages_exported(user) -> list[dict]:
    """The download's ``talk_messages``: the talk messages ``user`` wrote, oldest first (a
    removed one marked so; held ones too: they are the author's own)."""
    return [
        {
            "table": message.table_id,
            "seat": message.seat,
            "text": message.text,
            "phrase": message.phrase,
            "created_at": message.created_at.isoformat(),
            "removed": message.removed_at is not None,
        }
        for message in TalkMessage.objects.filter(author=user).order_by("created_at", "pk")
    ]


def reports_made_exported(user) -> list[dict]:
    """The download's ``reports_made``: the reports ``user`` made, oldest first. Reports
    made about them are not theirs to read: their reporters stay unnamed."""
    return [
        {
            "table": report.table_id,
            "message": report.message_id,
            "reported": report.reported.username if report.reported_id else None,
            "reason": report.reason,
            "text": report.text,
            "status": report.status,
            "created_at": report.created_at.isoformat(),
        }
        for report in Report.objects.filter(reporter=user)
        .select_related("reported")
        .order_by("created_at", "pk")
    ]
