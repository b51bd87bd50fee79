"""Messages that belong to one section of a long page: a form low on the settings page
comes back to its section (``/accounts/settings/#avisos``) and says that it worked
there, where a phone shows it after the jump, not in the page's list at the top.

A view tags the message: ``messages.success(request, text, extra_tags=in_section("avisos"))``;
``base.html`` lists only the untagged ones (``{% page_messages as shown %}``), the
section shows its own (``{% include "_section_messages.html" with section="avisos" %}``).
Registered as the template library ``section_messages`` (``config/settings``)."""

from __future__ import annotations

from django import template

register = template.Library()

PREFIX = "section-"


def in_section(section: str) -> str:
    """The ``extra_tags`` that place a message in the section whose id is ``section``."""
    return PREFIX + section


def _section_of(message) -> str:
    tags = (message.extra_tags or "").split()
    return next((tag.removeprefix(PREFIX) for tag in tags if tag.startswith(PREFIX)), "")


@register.simple_tag(takes_context=True)
def page_messages(context) -> list:
    """The request's messages that belong to no section: the page's list shows them."""
    return [m for m in context.get("messages") or () if not _section_of(m)]


@register.simple_tag(takes_context=True)
def section_messages(context, section: str) -> list:
    """The request's messages placed in ``section``."""
    return [m for m in context.get("messages") or () if _section_of(m) == section]
