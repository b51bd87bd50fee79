"""Shapes of the accounts API, in and out. Names are unique: they become schema names.

Inputs check types and lengths only; the rules (a taken username, password strength, a
valid reset key) are allauth's forms', reported under the same field names. A text field
given another JSON type (``123``, ``true``) and a field a body does not take
(``{"is_staff": true}``, ``languag``) are 400 ``invalid``, as in every body of the API
(``core.json_input``): DRF alone would read ``123`` as "123" and skip the others.

A NUL (U+0000) in a text is refused as any other control character is in that field, with
the same code and sentence (``RuledTextField``, ``RuledEmailField``), never with DRF's own
"Los caracteres nulos no están permitidos.", and never passed to the database (PostgreSQL
cannot store one): a new username gets the characters rule, an address "Escribe una
dirección de correo válida.", a sign-in's username ``invalid_credentials``, a link's
``key`` "El enlace no es válido o ha caducado." (those three before allauth), a current
password (the sign-in's too) the wrong password's answer, from the password check itself
(``User.check_password``). A new password takes every other control character (as the
web's forms do), so a NUL there has a sentence of its own: 400 ``invalid`` with "La
contraseña no puede contener el carácter nulo." under the field (``password_field``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts import hooks
from accounts.models import User
from accounts.validators import USERNAME_CHARACTERS
from core.json_input import RuledEmailField, RuledTextField, StrictInputMixin

EMAIL_MAX_LENGTH = 254  # allauth's EmailAddress.email and User.email


#: A new password's refusal of a NUL, the one character it cannot hold.
NEW_PASSWORD_NUL = _("La contraseña no puede contener el carácter nulo.")


def password_field(*, given: bool = False, **options) -> RuledTextField:
    """A password input: text up to 4096 characters, kept exactly as typed.

    DRF trims a CharField's edge spaces by default; Django's and allauth's password forms
    do not (``strip=False``), so a password chosen on the web with a space at either end
    must reach the API's checks with that space too. A new password (sign-up's
    ``password``, a reset's ``password``, a change's ``new_password``) takes any other
    control character, as the web's forms do, but one holding a NUL, which PostgreSQL
    cannot store, is refused here with ``NEW_PASSWORD_NUL`` (400 ``invalid`` under the
    field), before allauth sees it. ``given``: the account's current password, checked
    against it (sign-in, deleting the account, a change's ``old_password``), where a NUL
    is left to that check, ``User.check_password``, which refuses it as any wrong password
    before comparing hashes: the hash alone would not, as PBKDF2 (the live server's
    hasher) hashes "x\\0" as "x". ``options`` go to the field (``RuledTextField``)."""
    nul = {} if given else {"nul_message": NEW_PASSWORD_NUL}
    style = {"input_type": "password"}
    return RuledTextField(max_length=4096, trim_whitespace=False, style=style, **nul, **options)


class SignupInputSerializer(StrictInputMixin, serializers.Serializer):
    username = RuledTextField(max_length=150, nul_message=USERNAME_CHARACTERS)
    email = RuledEmailField(max_length=EMAIL_MAX_LENGTH)
    password = password_field(write_only=True)


class CredentialsInputSerializer(StrictInputMixin, serializers.Serializer):
    username = RuledTextField(
        max_length=EMAIL_MAX_LENGTH, help_text="The username or the account's e-mail address."
    )
    password = password_field(given=True)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class SignupOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class MeSerializer(StrictInputMixin, serializers.ModelSerializer):
    # The model's e-mail reads as a RuledEmailField: a NUL is "Escribe una dirección de
    # correo válida.", not DRF's NUL sentence beside it.
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.EmailField: RuledEmailField,
    }

    unread_notifications = serializers.SerializerMethodField(
        help_text="How many of my notices are unread (the inbox: /api/v1/notifications/)."
    )
    suspended_until = serializers.SerializerMethodField(
        help_text="While a moderator's suspension runs, when it ends (ISO 8601, UTC): "
        "until then creating, joining and rematching a table answer 403 suspended, so an "
        "app can say so instead of offering them (docs/moderation.md); else null."
    )

    class Meta:
        model = User
        fields = [
            "username",
            "email",
            "email_notifications",
            "pip_colour",
            "language",
            "unread_notifications",
            "suspended_until",
        ]
        read_only_fields = ["username"]
        extra_kwargs = {"email": {"max_length": EMAIL_MAX_LENGTH}}

    # Both facts belong to apps above accounts, which register their readers
    # (accounts.hooks); the annotations give the schema its types.
    def get_unread_notifications(self, user: User) -> int:
        return hooks.me_fact("unread_notifications", user)

    def get_suspended_until(self, user: User) -> str | None:
        return hooks.me_fact("suspended_until", user)


class EmailInputSerializer(StrictInputMixin, serializers.Serializer):
    email = RuledEmailField(max_length=EMAIL_MAX_LENGTH)


class EmailAddressSerializer(serializers.Serializer):
    email = serializers.EmailField()
    verified = serializers.BooleanField()
    primary = serializers.BooleanField()


class EmailStatusSerializer(serializers.Serializer):
    email = serializers.CharField(help_text="The address notices go to once verified.")
    verified = serializers.BooleanField()
    addresses = EmailAddressSerializer(many=True)


class KeyInputSerializer(StrictInputMixin, serializers.Serializer):
    key = RuledTextField(
        max_length=256, help_text="The last part of the link in the e-mail."
    )


class PasswordResetKeyInputSerializer(StrictInputMixin, serializers.Serializer):
    key = RuledTextField(
        max_length=256, help_text="The last part of the reset link: `<uid>-<token>`."
    )
    password = password_field()


class PasswordChangeInputSerializer(StrictInputMixin, serializers.Serializer):
    old_password = password_field(given=True)
    new_password = password_field()


class PasswordInputSerializer(StrictInputMixin, serializers.Serializer):
    password = password_field(given=True)


class DetailOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
