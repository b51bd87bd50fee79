"""What a free text of table talk or of a report may hold: something a reader can see,
nothing that turns the text around, and nothing that draws outside the text's own lines.

A text of only what draws nothing (spaces, format characters, blank letters, marks with no
letter under them) is no text: ``clean_text`` gives ``""`` and the talk refuses it as an
empty message, a report keeps no text. What would draw over other messages or stretch the
page (marks stacked on one letter, "zalgo"; hundreds of line breaks) is refused, never
trimmed: what is stored is what was sent, save its line breaks: Windows-style input sends
"\\r\\n" (an old Mac's a lone "\\r"), read and stored as the "\\n" it means.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext

from core.visible_text import BLANK_LETTERS, draws_something
from moderation import errors
from moderation.models import MAX_TALK_LENGTH

__all__ = ["BLANK_LETTERS", "clean_text"]

#: Control characters a plain-text message may hold (every other one is refused, C1 and
#: DEL as well: U+0085 NEXT LINE reads as a line break in some readers).
_ALLOWED_CONTROL = {"\n", "\t"}

#: The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they turn
#: the text after them around ("‮olleh" shows as "hello"), so a message holding one is
#: refused. The marks U+200E and U+200F, which reorder nothing, are kept.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: The most combining marks (Unicode categories Mn, Mc, Me) one character may carry.
#: Vietnamese written decomposed needs 2 ("ệ" = e, U+0323, U+0302), pointed Hebrew up to
#: 4; more is a stack ("zalgo") that draws over the lines above and below.
MAX_MARKS = 4

#: The most lines a message may have; U+2028 and U+2029 break a line as "\n" does.
MAX_LINES = 10
LINE_BREAKS = frozenset("\n\u2028\u2029")


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def _most_stacked_marks(text: str) -> int:
    """The most combining marks on one character of ``text``. Format characters between
    them (a U+200D) stack them all the same, so they do not end a run."""
    most = run = 0
    for char in text:
        if _is_mark(char):
            run += 1
            most = max(most, run)
        elif unicodedata.category(char) != "Cf":
            run = 0
    return most


def _normalise_line_breaks(text: str) -> str:
    """``text`` with each CRLF (``"\\r\\n"``) and each lone ``"\\r"`` written ``"\\n"``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean_text(text: str) -> str:
    """``text`` with its line breaks as ``"\\n"`` (``_normalise_line_breaks``: so a CRLF is one
    break and no control character), trimmed, and ``""`` when nothing visible is left
    once whitespace, the invisible format characters (Unicode category Cf: U+200B,
    U+2060, U+FEFF, ...), the blank letters (``BLANK_LETTERS``: U+3164, U+2800, U+FFFC,
    ...) and the combining marks are set aside (``core.visible_text.draws_something``: a
    mark shows only on a letter), so that a blank message is refused as an empty one.
    Raises ``invalid`` (400) for a control character or a bidi control
    (``BIDI_CONTROLS``), more than 300 characters, more than ``MAX_MARKS`` marks on one
    character or more than ``MAX_LINES`` lines. Cf, blank letters and marks inside
    visible text stay (an emoji's U+200D, an accent on its letter)."""
    text = _normalise_line_breaks(text or "").strip()
    if any(
        unicodedata.category(char) == "Cc" and char not in _ALLOWED_CONTROL for char in text
    ) or any(char in BIDI_CONTROLS for char in text):
        raise errors.invalid(gettext("El mensaje lleva caracteres no permitidos."))
    if not any(draws_something(char) for char in text):
        return ""
    if len(text) > MAX_TALK_LENGTH:
        raise errors.invalid(gettext("Hasta 300 caracteres."))
    if _most_stacked_marks(text) > MAX_MARKS:
        raise errors.invalid(gettext("Hasta 4 acentos o signos sobre una misma letra."))
    if sum(char in LINE_BREAKS for char in text) + 1 > MAX_LINES:
        raise errors.invalid(gettext("Hasta 10 líneas por mensaje."))
    return text
