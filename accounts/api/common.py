"""What the accounts endpoints share: the refusals in the API's error contract, allauth's
rate limits, form errors as ``400 invalid`` and checking a username (or e-mail) and
password."""

from __future__ import annotations

from allauth.core import ratelimit
from allauth.core.internal.ratelimit import get_rates
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework import serializers as drf_serializers
from rest_framework.request import Request

from accounts import serializers
from accounts.forms import LoginForm
from core.json_input import NUL


class InvalidCredentials(exceptions.APIException):
    status_code = 400
    code = "invalid_credentials"
    default_detail = _("Usuario o contraseña incorrectos.")


def throttled(action: str) -> exceptions.Throttled:
    """429 for an allauth rate limit; ``retry_after`` is the limit's longest window."""
    windows = [rate.duration for rate in get_rates(app="allauth.account", action=action)]
    return exceptions.Throttled(wait=max(windows, default=60))


def consume_rate(request: Request, action: str, **kwargs) -> None:
    """Count one attempt against allauth's ``action`` limit; 429 when over it."""
    if not ratelimit.consume(request._request, action=action, **kwargs):
        raise throttled(action)


#: allauth's rate limit on the accounts made from one address (``ACCOUNT_RATE_LIMITS``):
#: checked before a sign-up creates one and counted once it has, so refused attempts,
#: which only the short ``signup`` window counts, never use it up.
SIGNUP_CREATED = "signup_created"


def may_create_account(request) -> bool:
    """Whether one more account may be made from ``request``'s address now (a Django or
    DRF request); counts nothing (``account_created`` does, after the insert)."""
    request = getattr(request, "_request", request)
    return bool(ratelimit.consume(request, action=SIGNUP_CREATED, dry_run=True))


def account_created(request) -> None:
    """Count an account just made from ``request``'s address against ``SIGNUP_CREATED``."""
    ratelimit.consume(getattr(request, "_request", request), action=SIGNUP_CREATED)


def invalid_form(form, rename: dict[str, str] | None = None) -> drf_serializers.ValidationError:
    """A form's errors as the API's 400 ``invalid`` with ``fields`` named as the API's
    inputs (``password1`` is ``password``, and so on)."""
    rename = rename or {}
    fields: dict[str, list[str]] = {}
    for name, errors in form.errors.items():
        key = "non_field_errors" if name == "__all__" else rename.get(name, name)
        fields.setdefault(key, []).extend(str(message) for message in errors)
    return drf_serializers.ValidationError(fields)


def validated_input(serializer_class, request: Request) -> dict:
    """The request body checked by ``serializer_class``: its validated data, or 400
    ``invalid`` with ``fields``."""
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


def bad_key() -> drf_serializers.ValidationError:
    return drf_serializers.ValidationError(
        {"key": [str(_("El enlace no es válido o ha caducado."))]}
    )


def usable_key(key: str) -> str:
    """``key`` (from an e-mailed link), to hand to allauth; a key holding a NUL, which no
    link has, raises ``bad_key()`` as any wrong key (and never reaches the database)."""
    if NUL in key:
        raise bad_key()
    return key


def authenticate_credentials(request: Request):
    """The user for ``{username, password}`` (``username`` may be the e-mail), through
    allauth's login form and its failed-login limits (per address and per account).
    Raises 400 ``invalid`` (a malformed body), ``InvalidCredentials`` (a wrong password,
    one holding a NUL among them, counted as a failed sign-in: ``accounts.forms.LoginForm``;
    a username holding a NUL, which no account's name holds, too: never passed to allauth
    or the database) or 429."""
    values = validated_input(serializers.CredentialsInputSerializer, request)
    if NUL in values["username"]:
        raise InvalidCredentials()
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
        raise throttled("login_failed")
    raise InvalidCredentials()
