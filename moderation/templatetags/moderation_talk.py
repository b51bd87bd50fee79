"""``{% table_talk table_id %}``: the talk panel of the table page (its markup, its API
addresses and its words), so that the page shows it without ``tables`` importing this app.
The messages themselves come from the API (``static/js/table/talk.js``)."""

from django import template

from moderation.ui_strings import talk_strings

register = template.Library()


@register.inclusion_tag("moderation/talk_panel.html")
def table_talk(table_id: int) -> dict:
    """The panel's context: the table's id and the panel's words (``talk_strings``)."""
    return {"table_id": table_id, "talk_ui": talk_strings()}
