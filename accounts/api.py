"""Accounts API: one view per endpoint. Shapes live in accounts.serializers.

Thin views over django-allauth's forms and flows (sign-up, sign-in by username or e-mail,
verification, password reset and change), answering with the API's error contract
(``{code, detail, fields}``, core.api_errors) rather than allauth's headless shape.
allauth's rate limits apply (per client address and per account or e-mail) on top of the
DRF scopes; over either limit the answer is ``429 throttled``.
"""

from __future__ import annotations

from allauth.account.forms import (
    AddEmailForm,
    ChangePasswordForm,
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
from allauth.core import ratelimit
from allauth.core.internal.ratelimit import get_rates
from django.contrib.auth import login, logout
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework import serializers as drf_serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import serializers, services
from accounts.forms import LoginForm, SignupForm, UsernameTaken


class InvalidCredentials(exceptions.APIException):
    status_code = 400
    code = "invalid_credentials"
    default_detail = _("Usuario o contraseña incorrectos.")


def _throttled(action: str) -> exceptions.Throttled:
    """429 for an allauth rate limit; ``retry_after`` is the limit's longest window."""
    windows = [rate.duration for rate in get_rates(app="allauth.account", action=action)]
    return exceptions.Throttled(wait=max(windows, default=60))


def _consume(request: Request, action: str, **kwargs) -> None:
    """Count one attempt against allauth's ``action`` limit; 429 when over it."""
    if not ratelimit.consume(request._request, action=action, **kwargs):
        raise _throttled(action)


def _invalid(form, rename: dict[str, str] | None = None) -> drf_serializers.ValidationError:
    """A form's errors as the API's 400 ``invalid`` with ``fields`` named as the API's
    inputs (``password1`` is ``password``, and so on)."""
    rename = rename or {}
    fields: dict[str, list[str]] = {}
    for name, errors in form.errors.items():
        key = "non_field_errors" if name == "__all__" else rename.get(name, name)
        fields.setdefault(key, []).extend(str(message) for message in errors)
    return drf_serializers.ValidationError(fields)


def _input(serializer_class, request: Request) -> dict:
    """The request body checked by ``serializer_class``: its validated data, or 400
    ``invalid`` with ``fields``."""
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _bad_key() -> drf_serializers.ValidationError:
    return drf_serializers.ValidationError(
        {"key": [str(_("El enlace no es válido o ha caducado."))]}
    )


def _authenticate(request: Request):
    """The user for ``{username, password}`` (``username`` may be the e-mail), through
    allauth's login form and its failed-login limits (per address and per account)."""
    values = _input(serializers.CredentialsInputSerializer, request)
    form = LoginForm(
        data={
            "login": values["username"],
            "password": values["password"],
        },
        request=request._request,
    )
    if form.is_valid() and form.user is not None and form.user.is_active:
        return form.user
    codes = {error.code for error in form.errors.as_data().get("__all__", [])}
    if "too_many_login_attempts" in codes:
        raise _throttled("login_failed")
    raise InvalidCredentials()


class SignupApi(APIView):
    """Create an account (username, e-mail, password) and answer with its API token; a
    verification link goes to the address. An address that another account uses is
    accepted like any other (its owner is told instead), so the answer never says
    whether an e-mail has an account."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "signup"

    @extend_schema(
        request=serializers.SignupInputSerializer,
        responses={201: serializers.SignupOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = _input(serializers.SignupInputSerializer, request)
        _consume(request, "signup")
        form = SignupForm(
            data={
                "username": values["username"],
                "email": values["email"],
                "password1": values["password"],
                "password2": values["password"],
            }
        )
        if not form.is_valid():
            raise _invalid(form, {"password1": "password", "password2": "password"})
        try:
            user = form.save(request._request)
        except UsernameTaken:
            raise drf_serializers.ValidationError(
                {"username": [str(_("Ese nombre de usuario ya existe."))]}
            ) from None
        services.signup_complete(request=request._request, user=user)
        body = {"username": user.username, "token": services.token_for(user=user)}
        return Response(body, status=status.HTTP_201_CREATED)


class LoginApi(APIView):
    """Session sign-in for browser clients (fetch with the CSRF token); returns the user.
    ``username`` may be the account's e-mail."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "login"

    @extend_schema(
        request=serializers.CredentialsInputSerializer,
        responses={200: serializers.MeSerializer},
    )
    def post(self, request: Request) -> Response:
        # DRF skips CSRF for anonymous requests; a login must still be checked, or another
        # site could sign the visitor into an account of its choosing.
        SessionAuthentication().enforce_csrf(request)
        user = _authenticate(request)
        login(request._request, user)
        return Response(serializers.MeSerializer(user).data)


class LogoutApi(APIView):
    """End the session; a token-authenticated client's token is revoked too."""

    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, Token):
            request.auth.delete()
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenApi(APIView):
    """Exchange username (or e-mail) and password for the API token (mobile clients)."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "login"

    @extend_schema(
        request=serializers.CredentialsInputSerializer,
        responses={200: serializers.TokenOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        user = _authenticate(request)
        return Response({"token": services.token_for(user=user)})


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
    _consume(request, "manage_email", user=user)
    form = AddEmailForm(user=user, data={"email": email})
    if not form.is_valid():
        raise _invalid(form)
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
        values = _input(serializers.EmailInputSerializer, request)
        _change_email(request, values["email"])
        return Response(_email_status(request.user), status=status.HTTP_202_ACCEPTED)


class EmailResendApi(APIView):
    """Send the verification link again, to the pending address or else the unverified
    primary one (at most one a few minutes per address)."""

    @extend_schema(request=None, responses={202: serializers.EmailStatusSerializer})
    def post(self, request: Request) -> Response:
        _consume(request, "manage_email", user=request.user)
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
        values = _input(serializers.KeyInputSerializer, request)
        verification = get_emailconfirmation_model().from_key(values["key"])
        if (
            not verification
            or verification.key_expired()
            or not verification.email_address.can_set_verified()
            or not verification.confirm(request._request)
        ):
            raise _bad_key()
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
        values = _input(serializers.EmailInputSerializer, request)
        email = values["email"]
        _consume(request, "reset_password", key=email.lower())
        form = ResetPasswordForm(data={"email": email})
        if not form.is_valid():
            raise _invalid(form)
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
        values = _input(serializers.PasswordResetKeyInputSerializer, request)
        _consume(request, "reset_password_from_key")
        uidb36, _sep, token = values["key"].partition("-")
        keys = UserTokenForm(data={"uidb36": uidb36, "key": token})
        if not keys.is_valid():
            raise _bad_key()
        password = values["password"]
        form = ResetPasswordKeyForm(
            data={"password1": password, "password2": password},
            user=keys.reset_user,
            temp_key=token,
        )
        if not form.is_valid():
            raise _invalid(form, {"password1": "password", "password2": "password"})
        form.save()
        finalize_password_reset(request._request, keys.reset_user)
        return Response({"detail": str(_("Contraseña cambiada."))})


class PasswordChangeApi(APIView):
    """Change the password with the current one. This client stays signed in; the other
    sessions end (the token stays: revoke it with ``sign-out-everywhere``)."""

    @extend_schema(
        request=serializers.PasswordChangeInputSerializer,
        responses={200: serializers.DetailOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = _input(serializers.PasswordChangeInputSerializer, request)
        _consume(request, "change_password", user=request.user)
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
            raise _invalid(
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


class SignOutEverywhereApi(APIView):
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
    and their players told, finished tables keep the seat as «jugador eliminado»."""

    @extend_schema(request=serializers.PasswordInputSerializer, responses={204: None})
    def post(self, request: Request) -> Response:
        values = _input(serializers.PasswordInputSerializer, request)
        _consume(request, "reauthenticate", user=request.user)
        if not request.user.check_password(values["password"]):
            raise drf_serializers.ValidationError(
                {"password": [str(_("La contraseña no es correcta."))]}
            )
        services.account_delete(user=request.user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
