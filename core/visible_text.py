"""Which characters a reader sees: one reading shared by the table talk (a message of
nothing visible is an empty one: ``moderation.text.clean_text``) and new usernames (a
name must hold a letter or digit one sees: ``accounts.validators.refuse_invisible``).

A character draws nothing when it is whitespace, an invisible format character (Unicode
category Cf: U+200B-U+200D, U+2060, U+FEFF, ...), a blank letter (``BLANK_LETTERS``) or a
combining mark (Mn, Mc, Me: an accent shows only on the letter under it, so a lone U+0301
is blank). Inside visible text these stay what they are.
"""

from __future__ import annotations

import unicodedata

#: Characters that draw nothing though they are not format characters (Cf), whitespace or
#: marks: the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Braille pattern
#: without dots (U+2800), the object replacement character (U+FFFC, a placeholder for an
#: embedded object that a plain text has not got) and the musical null notehead
#: (U+1D159). The combining grapheme joiner (U+034F), the Khmer inherent vowels (U+17B4,
#: U+17B5) and the variation selectors (U+180B-U+180D, U+180F, U+FE00-U+FE0F,
#: U+E0100-U+E01EF) are marks, listed for the record. A message of nothing else is as
#: empty as one of spaces; inside visible text they stay (Korean written with the
#: fillers, an emoji's U+FE0F). U+FFFD, the replacement character, draws "�": it is text.
BLANK_LETTERS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0\ufffc"
    "\U0001d159"
    + "".join(chr(code) for code in range(0xFE00, 0xFE10))
    + "".join(chr(code) for code in range(0xE0100, 0xE01F0))
)


def draws_something(char: str) -> bool:
    """Whether ``char`` (one character) is something a reader sees on its own: not
    whitespace, not a format character (Cf), not a blank letter (``BLANK_LETTERS``) and
    not a combining mark (a mark is seen only on a letter under it)."""
    return not (
        char.isspace()
        or char in BLANK_LETTERS
        or unicodedata.category(char) == "Cf"
        or unicodedata.category(char).startswith("M")
    )


def has_visible_letter_or_digit(text: str) -> bool:
    """Whether ``text``, NFKC-normalised (as Django normalises a username), holds a
    letter or a digit (Unicode categories L and N) that ``draws_something``: ``"ana"``,
    ``"한글"``, ``"7"`` and ``"e\\u0301"`` do; ``"\\u3164"``, ``"\\u115f\\u1160"``,
    ``"\\u2800"``, ``"\\u200b"``, ``"\\u0301"`` and ``"._-"`` do not."""
    return any(
        draws_something(char) and unicodedata.category(char)[0] in "LN"
        for char in unicodedata.normalize("NFKC", text or "")
    )
