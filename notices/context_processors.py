"""For a signed-in visitor's pages: ``unread_notices`` for the header's bell
(templates/notices/bell.html), one COUNT query per page (on the partial index of unread
notices), and ``time_zone_unset`` (templates/notices/head.html), a query per page only
until the time zone is set; none otherwise.

A page is still drawn when the database fails those queries (a dropped connection, while
an error page is rendered): without the bell, and the 404 stays a 404."""

import logging

from django.db import connection

from core.faults import DATABASE_ERRORS
from notices import selectors
from notices.models import NoticePreferences

logger = logging.getLogger(__name__)

#: The session remembers that its user's time zone is set, so later pages ask nothing.
TIME_ZONE_SET = "notices_time_zone_set"


def unread_notices(request) -> dict:
    """``unread_notices`` (a count) and ``time_zone_unset``: the user never chose a time
    zone, so the page sends the browser's (``static/js/time_zone.js``). Empty when signed
    out, or when the database fails (outside a transaction, which must see its error)."""
    try:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return {}
        return {
            "unread_notices": selectors.unread_count(user, shown_table=_shown_table(request)),
            "time_zone_unset": not _time_zone_set(request, user),
        }
    except DATABASE_ERRORS as error:
        if connection.in_atomic_block:
            raise
        logger.warning("the page is drawn without the bell: %s: %s", type(error).__name__, error)
        return {}


def _shown_table(request) -> int | None:
    """The table the page shows (``tables:table``), whose notices its read marks read."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.view_name != "tables:table":
        return None
    return match.kwargs.get("table_id")


def _time_zone_set(request, user) -> bool:
    session = getattr(request, "session", None)
    if session is not None and session.get(TIME_ZONE_SET):
        return True
    chosen = NoticePreferences.objects.filter(user=user, time_zone_chosen=True).exists()
    if chosen and session is not None:
        session[TIME_ZONE_SET] = True
    return chosen
