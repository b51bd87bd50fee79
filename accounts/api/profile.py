"""The signed-in player's account: profile, e-mail and its verification, password reset
and change, signing out everywhere, the data export and deleting the account."""

from __future__ import annotations

from allauth.account.forms import (
    ResetPasswordForm,
    ResetPasswordKeyForm,
    UserTokenForm,
)
from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.internal.flows.password_change import finalize_password_change
from allauth.account.internal.flows.password_reset import finalize_password_reset
from allauth.account.models import EmailAddress, get_emailconfirmation_model
from django.contrib.auth import logout
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers as drf_serializers
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import serializers, services
from accounts.api.common import (
    bad_key,
    consume_rate,
    invalid_form,
    usable_key,
    validated_input,
)
from accounts.forms import AddEmailForm, ChangePasswordForm
from core.json_input import TakesNoBody


def _email_status(user) -> dict:
    addresses = list(EmailAddress.objects.filter(user=user).order_by("-primary", "email"))
    primary = next((a for a in addresses if a.primary), None)
    return {
        "email": user.email,
        "verified": bool(primary and primary.verified and user.email),
        "addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary} for a in addresses
        ],
    }


def _change_email(request: Request, email: str) -> None:
    """Start changing the account's address to ``email``: a verification link goes to
    it, and it replaces the old one (which is told) once followed. The same address
    again changes nothing."""
    user = request.user
    if email.lower() == (user.email or "").lower():
        address = EmailAddress.objects.filter(user=user, email__iexact=email).first()
        if address is None:  # an old account whose address allauth never saw
            address = EmailAddress.objects.create(user=user, email=email.lower(), primary=True)
            send_verification_email_to_address(request._request, address)
        return
    consume_rate(request, "manage_email", user=user)
    form = AddEmailForm(user=user, data={"email": email})
    if not form.is_valid():
        raise invalid_form(form)
    form.save(request._request)


class MeApi(APIView):
    """The signed-in player's profile and preferences. Always the caller's own.

    A new ``email`` is not taken at once: a verification link goes to it and it replaces
    the old address when followed (``GET /api/v1/accounts/email/`` shows it pending)."""

    @extend_schema(responses={200: serializers.MeSerializer})
    def get(self, request: Request) -> Response:
        return Response(serializers.MeSerializer(request.user).data)

    @extend_schema(
        request=serializers.MeSerializer(partial=True),
        responses={200: serializers.MeSerializer},
    )
    def patch(self, request: Request) -> Response:
        data = serializers.MeSerializer(request.user, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        email = data.validated_data.pop("email", None)
        if email:
            _change_email(request, email)
        data.save()
        request.user.refresh_from_db()
        return Response(serializers.MeSerializer(request.user).data)


class EmailApi(APIView):
    """The account's e-mail: ``GET`` says whether it is verified (notices wait for it) and
    which change is pending; ``POST {email}`` starts a change (verified again, the old
    address told)."""

    @extend_schema(responses={200: serializers.EmailStatusSerializer})
    def get(self, request: Request) -> Response:
        return Response(_email_status(request.user))

    @extend_schema(
        request=serializers.EmailInputSerializer,
        responses={202: serializers.EmailStatusSerializer},
    )
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.EmailInputSerializer, request)
        _change_email(request, values["email"])
        return Response(_email_status(request.user), status=status.HTTP_202_ACCEPTED)


class EmailResendApi(TakesNoBody, APIView):
    """Send the verification link again, to the pending address or else the unverified
    primary one (at most one a few minutes per address)."""

    @extend_schema(request=None, responses={202: serializers.EmailStatusSerializer})
    def post(self, request: Request) -> Response:
        consume_rate(request, "manage_email", user=request.user)
        addresses = EmailAddress.objects.filter(user=request.user, verified=False)
        address = addresses.order_by("primary").first()
        if address is not None:
            send_verification_email_to_address(request._request, address)
        return Response(_email_status(request.user), status=status.HTTP_202_ACCEPTED)


class EmailVerifyApi(APIView):
    """Verify an address with the key from its link (``/accounts/confirm-email/<key>/``);
    no sign-in needed, the key is the proof."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "login"

    @extend_schema(
        request=serializers.KeyInputSerializer, responses={200: serializers.DetailOutputSerializer}
    )
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.KeyInputSerializer, request)
        verification = get_emailconfirmation_model().from_key(usable_key(values["key"]))
        if (
            not verification
            or verification.key_expired()
            or not verification.email_address.can_set_verified()
            or not verification.confirm(request._request)
        ):
            raise bad_key()
        return Response({"detail": str(_("Correo verificado."))})


class PasswordResetApi(APIView):
    """Mail a reset link to the address, if an account has it. The answer is the same
    whether or not one does (no enumeration); the link works once, for
    ``PASSWORD_RESET_SECONDS``."""

    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(
        request=serializers.EmailInputSerializer,
        responses={200: serializers.DetailOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.EmailInputSerializer, request)
        email = values["email"]
        consume_rate(request, "reset_password", key=email.lower())
        form = ResetPasswordForm(data={"email": email})
        if not form.is_valid():
            raise invalid_form(form)
        form.save(request._request)
        return Response(
            {"detail": str(_("Si hay una cuenta con ese correo, te hemos enviado un enlace."))}
        )


class PasswordResetKeyApi(APIView):
    """Set a new password with the key from the reset link; every session and the API
    token of the account end."""

    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(
        request=serializers.PasswordResetKeyInputSerializer,
        responses={200: serializers.DetailOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.PasswordResetKeyInputSerializer, request)
        consume_rate(request, "reset_password_from_key")
        uidb36, _sep, token = usable_key(values["key"]).partition("-")
        keys = UserTokenForm(data={"uidb36": uidb36, "key": token})
        if not keys.is_valid():
            raise bad_key()
        password = values["password"]
        form = ResetPasswordKeyForm(
            data={"password1": password, "password2": password},
            user=keys.reset_user,
            temp_key=token,
        )
        if not form.is_valid():
            raise invalid_form(form, {"password1": "password", "password2": "password"})
        form.save()
        finalize_password_reset(request._request, keys.reset_user)
        return Response({"detail": str(_("Contraseña cambiada."))})


class PasswordChangeApi(APIView):
    """Change the password with the current one. This client stays signed in; the other
    sessions end (the token stays: revoke it with ``sign-out-everywhere``). A current
    password holding a NUL is refused as any wrong one, allauth's "Escribe tu contraseña
    actual." under ``old_password`` (``accounts.forms.ChangePasswordForm``)."""

    @extend_schema(
        request=serializers.PasswordChangeInputSerializer,
        responses={200: serializers.DetailOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.PasswordChangeInputSerializer, request)
        consume_rate(request, "change_password", user=request.user)
        new = values["new_password"]
        form = ChangePasswordForm(
            user=request.user,
            data={
                "oldpassword": values["old_password"],
                "password1": new,
                "password2": new,
            },
        )
        if not form.is_valid():
            raise invalid_form(
                form,
                {
                    "oldpassword": "old_password",
                    "password1": "new_password",
                    "password2": "new_password",
                },
            )
        form.save()
        finalize_password_change(request._request, request.user)
        return Response({"detail": str(_("Contraseña cambiada."))})


class SignOutEverywhereApi(TakesNoBody, APIView):
    """End every session of the account and revoke its API token (this one too)."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        services.sign_out_everywhere(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DataExportApi(APIView):
    """Download my data: the profile, the e-mail addresses, every table and the record
    of every finished match, as one JSON file."""

    @extend_schema(responses={200: {"type": "object"}})
    def get(self, request: Request) -> Response:
        response = Response(services.account_export(user=request.user))
        response["Content-Disposition"] = (
            f'attachment; filename="domino-{request.user.username}.json"'
        )
        return response


class AccountDeleteApi(APIView):
    """Delete my account, confirmed with the password: active tables are abandoned (R26)
    and their players told, finished tables keep the seat as «jugador eliminado». A
    password holding a NUL is a wrong one (``User.check_password``), whatever the hasher."""

    @extend_schema(request=serializers.PasswordInputSerializer, responses={204: None})
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.PasswordInputSerializer, request)
        consume_rate(request, "reauthenticate", user=request.user)
        if not request.user.check_password(values["password"]):
            raise drf_serializers.ValidationError(
                {"password": [str(_("La contraseña no es correcta."))]}
            )
        services.account_delete(user=request.user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
