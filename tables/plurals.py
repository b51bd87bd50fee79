"""Counted words for the pages' scripts: a text whose form follows a number ("1 punto",
"2 puntos") reaches the script in both forms, and the script picks one for its count
(``counted`` in ``static/js/table/dom.js``). The server side calls ``ngettext`` itself."""

from __future__ import annotations

from collections.abc import Callable

#: A page's words for its script: a text, or a counted text in both forms (``plural_forms``).
Words = dict[str, str | dict[str, str]]


def plural_forms(text: Callable[[int], str]) -> dict[str, str]:
    """Both forms of a counted text, ``{"one": text(1), "other": text(2)}``; ``text`` is
    ``lambda n: ngettext(singular, plural, n)`` (written out so that ``makemessages``
    finds it). "one" is for exactly 1, "other" for every other count, as Spanish and
    English choose (``Plural-Forms: plural=(n != 1)``)."""
    return {"one": text(1), "other": text(2)}
