"""The rules for a new username (settings: ``ACCOUNT_USERNAME_VALIDATORS``, which
allauth's sign-up form and the sign-up API both apply, after NFKC normalisation; there is
no username change).

- Django's username characters, with the site's own wording in "tú" (Django's Spanish
  catalogue says "Introduza…", Portuguese and "usted").
- No ``@``: other players see the name, and a name that is an e-mail address
  (``carol@example.com``) could pass for its owner. Existing names are untouched: the
  model's own validator still allows ``@``.
- At most ``USERNAME_MAX_LENGTH`` characters: the pages show names whole.
- At least one letter or digit a reader sees (``refuse_invisible``): no name of Hangul
  fillers (U+3164), a blank Braille cell, zero-width characters or lone marks.
- One script (``аlice`` with a Cyrillic "а" is refused), no look-alike of an existing
  name (Greek ``ΑΒΕ`` when ``abe`` exists, ``b0b``, ``BÖB``, ``ʙob`` or ``b.o.b`` when
  ``bob`` does: ``User.username_skeleton``) and no bot's name (``nino``, ``Nino_II``): other
  players must not take one person for another, or for a bot. Scripts and look-alikes
  come from Unicode's data (UTS #39) through ``confusable_homoglyphs``. The form checks
  look-alikes, and the sign-up checks them again under a lock (``lock_look_alikes``)
  just before its insert, so of two racing look-alikes only one is created.
"""

import hashlib
import re

from confusable_homoglyphs import categories
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, RegexValidator
from django.db import connection
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext_lazy as _

from accounts.models import User, username_key, username_skeleton
from core.visible_text import has_visible_letter_or_digit
from dominoes.bots import BOTS

USERNAME_MAX_LENGTH = 30

# Scripts that go with any other (digits, "_", "."; combining marks), and the mixes one
# language writes in (Unicode's "highly restrictive" level, UTS #39 5.2).
_NEUTRAL_SCRIPTS = {"COMMON", "INHERITED"}
_WRITING_SYSTEMS = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
    {"LATIN", "HAN", "BOPOMOFO"},
    {"LATIN", "HAN", "HANGUL"},
)
_SEPARATORS = re.compile(r"[._+\-\s]")
_TRAILING_DIGITS = re.compile(r"\d+$")
# "Nino II": the second Nino at one table (tables.seating.bot_name).
_NUMBERED = ("", "ii", "iii", "iv")


def scripts(name: str) -> set[str]:
    """The scripts ``name``'s letters are written in (``{"LATIN", "CYRILLIC"}``), digits
    and signs left out."""
    return categories.unique_aliases(name) - _NEUTRAL_SCRIPTS


def refuse_mixed_scripts(name: str) -> None:
    """Refuse a name whose letters come from two scripts that no one language mixes."""
    used = scripts(name)
    if len(used) > 1 and not any(used <= system for system in _WRITING_SYSTEMS):
        raise ValidationError(
            _(
                "El nombre de usuario mezcla alfabetos (por ejemplo, letras latinas con "
                "cirílicas o griegas): escríbelo en uno solo, para que nadie lo confunda "
                "con otro."
            ),
            code="username_mixed_scripts",
        )


def _bare(name: str) -> str:
    """``name``'s skeleton without separators or a trailing number (``Niño_2``: ``nlno``):
    "Niño" beside "Nino (bot)" reads as the bot."""
    return username_skeleton(_TRAILING_DIGITS.sub("", _SEPARATORS.sub("", name)))


_BOT_NAMES = frozenset(
    _bare(spelling + number)
    for bot in BOTS.values()
    for spelling in (bot.name, bot.display_name)
    for number in _NUMBERED
)


def refuse_bot_names(name: str) -> None:
    """Refuse a bot's name, in any case, spacing or look-alike letters, alone or numbered
    (``nino``, ``N1no``, ``Nino_II``, ``nino2``, ``abuela.quelonia``, ``Quelonia``)."""
    if _bare(name) in _BOT_NAMES:
        raise ValidationError(
            _(
                "Ese nombre es el de uno de los bots del sitio: elige otro, para que nadie "
                "te tome por un bot."
            ),
            code="username_bot",
        )


def refuse_invisible(name: str) -> None:
    """Refuse a name with no letter or digit a reader sees, once NFKC-normalised and
    read as the talk reads a message (``core.visible_text``): the Hangul fillers (U+3164,
    U+115F, U+1160, U+FFA0), which pass for letters, the blank Braille cell (U+2800),
    zero-width characters (U+200B-U+200D, U+FEFF), combining marks with no letter under
    them (U+0301), or only signs (``"._"``). Other players could not see or name it."""
    if not has_visible_letter_or_digit(name):
        raise ValidationError(
            _(
                "El nombre de usuario tiene que llevar al menos una letra o una cifra que "
                "se vea."
            ),
            code="username_invisible",
        )


def refuse_look_alikes(name: str) -> None:
    """Refuse a name that looks like an existing user's (``username_skeleton``: ``а1ice``,
    ``ÁLICE`` or ``ᴀlice`` when ``alice`` exists). The same name in another case is left to
    the "taken" check."""
    look_alikes = User.objects.filter(username_skeleton=username_skeleton(name)).exclude(
        username_key=username_key(name)
    )
    if look_alikes.exists():
        raise ValidationError(
            _(
                "Ese nombre se confunde con el de otro jugador (se ve igual o casi, con "
                "acentos, letras de otro alfabeto o cifras en vez de letras): elige otro."
            ),
            code="username_look_alike",
        )


def lock_look_alikes(name: str) -> None:
    """Inside a sign-up's transaction, before its insert: wait for any other sign-up of a
    name that looks like ``name`` to commit, then refuse ``name`` if that one (or anyone)
    has it (``refuse_look_alikes``). Two look-alike sign-ups checked at the same instant
    would both pass the form's check; this makes the second wait and fail.

    The lock is PostgreSQL's transaction-level advisory lock, keyed by the skeleton and
    released at commit or rollback; the column stays indexed, not unique, because names
    made before may already share a skeleton. Other databases (SQLite in development)
    take no lock."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("lock_look_alikes is for a transaction only.")
    if connection.vendor == "postgresql":
        digest = hashlib.blake2b(
            username_skeleton(name).encode(), digest_size=8, person=b"username-skel"
        ).digest()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)]
            )
    refuse_look_alikes(name)


#: The username characters rule's sentence; a NUL is refused with it too, before the
#: sign-up form (``accounts.serializers``), so it never reaches the database.
USERNAME_CHARACTERS = _(
    "Escribe un nombre de usuario válido: solo letras, números y los signos . + - _."
)

username_validators = [
    UnicodeUsernameValidator(message=USERNAME_CHARACTERS),
    RegexValidator(
        r"@",
        inverse_match=True,
        message=_(
            "El nombre de usuario no puede llevar @: los demás jugadores lo ven, y no debe "
            "parecer una dirección de correo."
        ),
        code="username_at",
    ),
    MaxLengthValidator(
        USERNAME_MAX_LENGTH,
        message=_(
            "El nombre de usuario puede tener como mucho %(limit_value)d caracteres "
            "(este tiene %(show_value)d)."
        ),
    ),
    refuse_invisible,
    refuse_mixed_scripts,
    refuse_bot_names,
    refuse_look_alikes,
]
