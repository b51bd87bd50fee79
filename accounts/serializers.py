"""Shapes of the accounts API, in and out. Names are unique: they become schema names.

Inputs check types and lengths only; the rules (a taken username, password strength, a
valid reset key) are allauth's forms', reported under the same field names."""

from rest_framework import serializers

from accounts.models import User

EMAIL_MAX_LENGTH = 254  # allauth's EmailAddress.email and User.email


class SignupInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=EMAIL_MAX_LENGTH)
    password = serializers.CharField(
        write_only=True, max_length=4096, style={"input_type": "password"}
    )


class CredentialsInputSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=EMAIL_MAX_LENGTH, help_text="The username or the account's e-mail address."
    )
    password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class SignupOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class MeSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["username", "email", "email_notifications", "pip_colour", "language"]
        read_only_fields = ["username"]
        extra_kwargs = {"email": {"max_length": EMAIL_MAX_LENGTH}}


class EmailInputSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=EMAIL_MAX_LENGTH)


class EmailAddressSerializer(serializers.Serializer):
    email = serializers.EmailField()
    verified = serializers.BooleanField()
    primary = serializers.BooleanField()


class EmailStatusSerializer(serializers.Serializer):
    email = serializers.CharField(help_text="The address notices go to once verified.")
    verified = serializers.BooleanField()
    addresses = EmailAddressSerializer(many=True)


class KeyInputSerializer(serializers.Serializer):
    key = serializers.CharField(
        max_length=256, help_text="The last part of the link in the e-mail."
    )


class PasswordResetKeyInputSerializer(serializers.Serializer):
    key = serializers.CharField(
        max_length=256, help_text="The last part of the reset link: `<uid>-<token>`."
    )
    password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class PasswordChangeInputSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=4096, style={"input_type": "password"})
    new_password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class PasswordInputSerializer(serializers.Serializer):
    password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class DetailOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
