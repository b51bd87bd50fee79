"""The player: Django's user plus the preferences the game needs."""

import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

#: The one character no password holds (``User.check_password``).
NUL = "\x00"


def username_key(username: str) -> str:
    """The form of ``username`` that two names share when people would take them for one:
    NFKC-normalised and case-folded (``ａｌｉｃｅ``, ``Alice`` and ``ALICE`` all give
    ``alice``). ``User.username_key`` holds it under a unique constraint."""
    folded = unicodedata.normalize("NFKC", username or "").casefold()
    return unicodedata.normalize("NFKC", folded)


def _prototype(char: str) -> str:
    """The character Unicode's confusables list (UTS #39) gives as what ``char`` looks
    like (Greek "Α" and Cyrillic "А" look like Latin "A", "1" like "l"), else ``char``.

    ``confusable_homoglyphs`` lists each pair both ways, so a prototype with a single
    look-alike reads like a look-alike of it: of two letters that only name each other
    (Latin "Ə" and Cyrillic "Ә"), each would become the other and they would never meet.
    Both become the lower code point, unless the other is a compatibility form that the
    skeleton takes further (Canadian "ᙆ" becomes modifier "ᶻ", that is "z")."""
    found = confusables_data.get(char)
    if found and len(found) == 1:
        target = found[0]["c"]
        back = confusables_data.get(target, ())
        if any(glyph["c"] == char for glyph in back):
            mutual = len(back) == 1 and _without_marks(target) == target
            return min(char, target) if mutual else target
    return char


# Latin small capitals, each to its letter (no "x" has one). Unicode's confusables
# (UTS #39, ``confusable_homoglyphs``) take nine of them to the plain letter ("ᴄ" to "c"),
# the others to letters no Latin name's skeleton reaches ("ᴀ" to Cherokee "ꭺ", "ʜ" to
# Cyrillic "н", "ᴛ" to Greek "τ") or nowhere ("ꜰ", "ɴ", "ꞯ"), so "ᴀlice" would not meet
# "alice" without this table. tests/accounts/test_username_folding.py checks it against
# the characters' Unicode names.
_SMALL_CAPITALS = str.maketrans("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnopqrstuvwyz")
# Letters the site's font draws as another that Unicode's confusables leave out: "ɒ" (a
# turned alpha) as "a". And the signs a name may have besides letters and digits
# (accounts.validators), set aside: "bob_", "b.o.b" and "b-ob" read as "bob".
_UNLISTED = str.maketrans({"ɒ": "a", ".": None, "_": None, "-": None, "+": None})


def _base_letter(char: str) -> str:
    """The Latin letter ``char`` is drawn from when Unicode names it as that letter "with"
    something no decomposition takes off (a hook, a bar, a stroke, a tail): "ɓ" (b with
    hook), "ꞓ" (c with bar), "ƴ" (y with hook), "ø" and "ł" (with stroke) are "b", "c",
    "y", "o" and "l"; any other character is itself. Accents decompose and are dropped by
    ``_without_marks`` instead."""
    name = unicodedata.name(char, "")
    if name.startswith("LATIN ") and " WITH " in name:
        try:
            return unicodedata.lookup(name.partition(" WITH ")[0])
        except KeyError:
            return char
    return char


def _without_marks(text: str) -> str:
    """``text`` in NFKD without its combining marks: accents and other diacritics
    ("Álice" is "Alice"), fullwidth and mathematical letters as plain ones."""
    return "".join(
        char
        for char in unicodedata.normalize("NFKD", text)
        if not unicodedata.category(char).startswith("M")
    )


def _looks_like(char: str) -> str:
    """What one case-folded letter without marks looks like. When Unicode lists its capital
    (as a look-alike or as what others look like), the prototype of the capital, as
    before: the confusables of capitals are the uniform ones (Greek "β" and Cyrillic "в"
    are "b", "m" stays "m" rather than "rn", so "Ema" and "Erna" differ), and a letter
    that others' capitals look like keeps meeting them (Greek "γ" meets Cyrillic "г", as
    "Γ" and "Г" look alike, rather than "y"). Otherwise the letter's own prototype: the
    lower case's look-alikes (Latin alpha "ɑ" is "a", script "ɡ" is "g", Cyrillic "һ" is
    "h"). One or the other, not one after the other, which would take "г" through "Γ"
    and "γ" to "y"."""
    capital = unicodedata.normalize("NFD", char.upper())
    if any(letter in confusables_data for letter in capital):
        return "".join(_prototype(letter) for letter in capital)
    return _prototype(char)


def _letter_looks(char: str) -> str:
    """``_looks_like(char)``, unless that is no plain letter or digit and ``char`` is a Latin
    letter with a hook, a bar or a stroke: then its letter (``_base_letter``). Unicode's
    confusables take "ɓ" to "'b" and "ꞓ" to an epsilon, which no Latin name meets, while
    the site's font draws them as "b" and "c"; "ʋ" keeps its listed look-alike "u"."""
    looks = _without_marks(_looks_like(char)).casefold()
    if looks.isascii() and looks.isalnum():
        return looks
    return _base_letter(char) if _base_letter(char) != char else looks


def username_skeleton(username: str) -> str:
    """What ``username`` looks like, whatever the script, case, accents, width or small
    capitals of its letters, and without the signs ``.``, ``_``, ``-`` and ``+``: each
    letter of the name without its marks, case-folded, as UTS #39 says it or its capital
    looks (``_looks_like``), without marks and case-folded again. ``alice``, ``ÁLICE``,
    ``alicé``, ``ᴀlice``, ``ɑlice``, ``ａlice``, ``a1ice``, ``a.lice`` and ``аlice`` with
    a Cyrillic "а" all give ``allce``; ``ɓob`` gives ``bob`` (``_letter_looks``); Greek
    ``ΑΒΕ`` and ``abe`` give ``abe``, Cyrillic ``һоу`` and ``hoy`` give ``hoy``; ``Ana``
    and ``Anna``, ``bob`` and ``bob2`` stay apart. ``User.username_skeleton`` holds it, indexed."""
    plain = _without_marks(username or "").casefold().translate(_SMALL_CAPITALS)
    looks = "".join(_letter_looks(char) for char in plain.translate(_UNLISTED))
    return _without_marks(looks).casefold()


def _never_a_password(raw_password) -> bool:
    """``raw_password`` holds a NUL, so it is no account's (``User.check_password``); it
    is hashed once all the same, and thrown away, for the time taken."""
    if raw_password is None or NUL not in raw_password:
        return False
    make_password(raw_password)
    return True


class User(AbstractUser):
    class PipColour(models.TextChoices):
        COLOURED = "coloured", _("En colores")
        BLACK = "black", _("Negros")

    class Language(models.TextChoices):
        ES = "es", _("Español")
        EN = "en", _("English")

    email_notifications = models.BooleanField(
        _("avisos por correo"),
        default=True,
        help_text=_("Recibir un correo cuando sea tu turno o termine una partida."),
    )
    pip_colour = models.CharField(
        _("color de los puntos"),
        max_length=16,
        choices=PipColour.choices,
        default=PipColour.COLOURED,
    )
    language = models.CharField(
        _("idioma"),
        max_length=8,
        choices=Language.choices,
        default=Language.ES,
    )

    username_key = models.CharField(
        _("nombre normalizado"),
        max_length=1024,  # case folding may lengthen a name (ß is ss)
        unique=True,
        editable=False,
        help_text=_("El nombre sin mayúsculas ni variantes de anchura: único."),
    )
    username_skeleton = models.CharField(
        _("forma del nombre"),
        max_length=1024,
        db_index=True,
        editable=False,
        default="",
        help_text=_("A qué se parece el nombre, sea cual sea el alfabeto de sus letras."),
    )
    session_generation = models.PositiveIntegerField(default=0, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def clean(self):
        super().clean()  # NFKC-normalises the username and the e-mail's domain
        self.username_key = username_key(self.username)
        self.username_skeleton = username_skeleton(self.username)

    def save(self, *args, **kwargs):
        self.username_key = username_key(self.username)
        self.username_skeleton = username_skeleton(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key", "username_skeleton"}
        super().save(*args, **kwargs)

    def check_password(self, raw_password) -> bool:
        """Django's check, except that a password holding a NUL (U+0000) is never the
        account's: no new password may hold one (``accounts.serializers.password_field``,
        Django's forms), and the hash cannot tell, as PBKDF2 (the live server's hasher)
        pads a key shorter than its HMAC block with zero bytes: "x\\0" hashes as "x".
        Every check of a password the player claims is theirs ends here (the API's and
        the pages' sign-in, password change, reauthentication and account deletion;
        Django's ``authenticate``), so each refuses a NUL as its wrong password. Refused
        before the stored hash is compared (nothing rehashed or saved), after one
        throwaway hash, as Django hashes for an unknown username: the time taken does not
        tell whether the account exists."""
        if _never_a_password(raw_password):
            return False
        return super().check_password(raw_password)

    async def acheck_password(self, raw_password) -> bool:
        """``check_password``'s NUL rule, asynchronously."""
        if _never_a_password(raw_password):
            return False
        return await super().acheck_password(raw_password)

    def get_session_auth_hash(self) -> str:
        """Django's session check, salted with ``session_generation``: raising it
        (``accounts.services.sign_out_everywhere``) ends every session signed in before.
        At generation 0 it is Django's own hash, so sessions from before stay valid."""
        if not self.session_generation:
            return super().get_session_auth_hash()
        return salted_hmac(
            "accounts.User.get_session_auth_hash",
            f"{self.password}:{self.session_generation}",
            algorithm="sha256",
        ).hexdigest()
