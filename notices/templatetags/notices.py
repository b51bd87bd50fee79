"""Template filters for notices (``outcome_label``, ``score_lines``, ``describe``) and the
settings page's section (``{% notice_preferences %}``), so the accounts page needs one
line for it."""

from django import template
from django.conf import settings

from notices import selectors, services
from notices.forms import NoticePreferencesForm

register = template.Library()

register.filter("outcome_label", selectors.outcome_label)
register.filter("score_lines", selectors.score_lines)
register.filter("describe", selectors.describe)


@register.inclusion_tag("notices/_preferences.html", takes_context=True)
def notice_preferences(context) -> dict:
    """The "Avisos" section of the settings page: the signed-in player's form."""
    user = context["request"].user
    key = settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else ""
    form = NoticePreferencesForm(instance=services.preferences_for(user), push=bool(key))
    return {
        "form": form,
        "csrf_token": context.get("csrf_token"),
        "push_key": key,
        "messages": context.get("messages"),  # "Avisos guardados." is said in the section
    }
