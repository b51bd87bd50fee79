"""Shapes of the accounts API, in and out. Names are unique: they become schema names."""

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts.models import User
from notices.selectors import unread_count


class SignupInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True, default="")

    def validate_username(self, value: str) -> str:
        User.username_validator(value)
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(
                _("Ese nombre de usuario ya existe."), code="username_taken"
            )
        return value

    def validate(self, attrs: dict) -> dict:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as exc:  # report it under "password", not the form
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class CredentialsInputSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()


class SignupOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()


class MeSerializer(serializers.ModelSerializer):
    unread_notifications = serializers.SerializerMethodField(
        help_text="How many of my notices are unread (the inbox: /api/v1/notifications/)."
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
        ]
        read_only_fields = ["username"]

    def get_unread_notifications(self, user: User) -> int:
        return unread_count(user)
