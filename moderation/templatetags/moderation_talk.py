"""Moderation on the players' pages without ``tables`` importing this app:
``{% table_talk table_id %}``, the talk panel of the table page (its markup, its API
addresses and its words; the messages come from the API, ``static/js/table/talk.js``),
``{% moderation_notices user %}``, what moderators did that concerns the player, and
``{% muted_players %}``, the settings page's list of the people the player muted."""

from datetime import timedelta

from django import template
from django.utils import timezone

from accounts.time_zones import time_zone_of, written_in_zone
from moderation import selectors
from moderation.ui_strings import talk_strings

#: How long a moderation notice stays on the player's home page.
NOTICE_DAYS = 30

register = template.Library()


@register.inclusion_tag("moderation/talk_panel.html")
def table_talk(table_id: int, time_zone: str = "") -> dict:
    """The panel's context: the table's id, the panel's words (``talk_strings``) and
    ``time_zone``, the name of the zone the talk writes its times in when the player chose
    one (``accounts.time_zones.chosen_time_zone``), named under the title; ``""`` leaves
    naming it to the script, which then writes in the browser's zone."""
    return {"table_id": table_id, "talk_ui": talk_strings(), "time_zone": time_zone}


@register.inclusion_tag("moderation/notices_banner.html")
def moderation_notices(user) -> dict:
    """``{% moderation_notices request.user %}``: what moderators did that concerns
    ``user`` in the last ``NOTICE_DAYS`` days (a warning, a running suspension, a message
    removed, a table closed), each with its reason, newest first, at most five; dated in
    ``user``'s saved time zone (UTC while none is), the suspension's end naming it as
    the notices and the 403 ``suspended`` do (``accounts.time_zones.written_in_zone``)."""
    since = timezone.now() - timedelta(days=NOTICE_DAYS)
    notices = [n for n in selectors.notices_for(user) if n["created_at"] >= since]
    suspension = selectors.active_suspension(user)
    if not notices and suspension is None:
        return {}  # nothing to show: no query for the zone
    zone = time_zone_of(user)
    until = written_in_zone(suspension.until, zone) if suspension else ""
    return {"notices": notices[:5], "suspension": suspension, "until": until, "zone": zone}


@register.inclusion_tag("moderation/muted_players.html", takes_context=True)
def muted_players(context) -> dict:
    """The settings page's "Jugadores silenciados" section: the people the signed-in
    player muted at every table, each with "Volver a oír" (``moderation.views``)."""
    user = context["request"].user
    return {
        "muted": selectors.muted_players(user),
        "csrf_token": context.get("csrf_token"),
        "messages": context.get("messages"),  # "Vuelves a oír a …" is said in the section
    }
