"""Template filters for notices: ``outcome_label``, ``score_lines``, ``describe``."""

from django import template

from notices import selectors

register = template.Library()

register.filter("outcome_label", selectors.outcome_label)
register.filter("score_lines", selectors.score_lines)
register.filter("describe", selectors.describe)
