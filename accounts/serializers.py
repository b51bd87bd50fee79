"""Shapes of the accounts API, in and out. Names are unique: they become schema names.

Inputs check types and lengths only; the rules (a taken username, password strength, a
valid reset key) are allauth's forms', reported under the same field names. A text field
given another JSON type (``123``, ``true``) and a field a body does not take
(``{"is_staff": true}``, ``languag``) are 400 ``invalid``, as in every body of the API
(``core.json_input``): DRF alone would read ``123`` as "123" and skip the others."""

from datetime import UTC

from rest_framework import serializers

from accounts.models import User
from core.json_input import StrictInputMixin
from moderation.selectors import active_suspension
from notices.selectors import unread_count

EMAIL_MAX_LENGTH = 254  # allauth's EmailAddress.email and User.email


def password_field(**options):
    """A password input: text up to 4096 characters, kept exactly as typed.

    DRF trims a CharField's edge spaces by default; Django's and allauth's password forms
    do not (``strip=False``), so a password chosen on the web with a space at either end
    must reach the API's checks with that space too. ``options`` go to ``CharField``."""
    return serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}, **options
    )


class SignupInputSerializer(StrictInputMixin, serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=EMAIL_MAX_LENGTH)
    password = password_field(write_only=True)


class CredentialsInputSerializer(StrictInputMixin, serializers.Serializer):
    username = serializers.CharField(
        max_length=EMAIL_MAX_LENGTH, help_text="The username or the account's e-mail address."
    )
    password = password_field()


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class SignupOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class MeSerializer(StrictInputMixin, serializers.ModelSerializer):
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

    def get_unread_notifications(self, user: User) -> int:
        return unread_count(user)

    def get_suspended_until(self, user: User) -> str | None:
        suspension = active_suspension(user)
        if suspension is None:
            return None
        return suspension.until.astimezone(UTC).isoformat()


class EmailInputSerializer(StrictInputMixin, serializers.Serializer):
    email = serializers.EmailField(max_length=EMAIL_MAX_LENGTH)


class EmailAddressSerializer(serializers.Serializer):
    email = serializers.EmailField()
    verified = serializers.BooleanField()
    primary = serializers.BooleanField()


class EmailStatusSerializer(serializers.Serializer):
    email = serializers.CharField(help_text="The address notices go to once verified.")
    verified = serializers.BooleanField()
    addresses = EmailAddressSerializer(many=True)


class KeyInputSerializer(StrictInputMixin, serializers.Serializer):
    key = serializers.CharField(
        max_length=256, help_text="The last part of the link in the e-mail."
    )


class PasswordResetKeyInputSerializer(StrictInputMixin, serializers.Serializer):
    key = serializers.CharField(
        max_length=256, help_text="The last part of the reset link: `<uid>-<token>`."
    )
    password = password_field()


class PasswordChangeInputSerializer(StrictInputMixin, serializers.Serializer):
    old_password = password_field()
    new_password = password_field()


class PasswordInputSerializer(StrictInputMixin, serializers.Serializer):
    password = password_field()


class DetailOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
