"""Sign-up, sign-in (session or token) and sign-out."""

from __future__ import annotations

from django.contrib.auth import login, logout
from drf_spectacular.utils import extend_schema
from rest_framework import serializers as drf_serializers
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import serializers, services
from accounts.api.common import (
    SIGNUP_CREATED,
    account_created,
    authenticate_credentials,
    consume_rate,
    invalid_form,
    may_create_account,
    throttled,
    validated_input,
)
from accounts.forms import SignupForm, UsernameTaken
from core.api_schema import api_error
from core.json_input import TakesNoBody

#: A sign-in's refusal, as the schema declares it.
CREDENTIALS_REFUSED = api_error(
    "invalid_credentials: no account has that name (or e-mail) and password; invalid."
)


class SignupApi(APIView):
    """Create an account (username, e-mail, password) and answer with its API token; a
    verification link goes to the address. An address that another account uses is
    accepted like any other (its owner is told instead), so the answer never says
    whether an e-mail has an account. Attempts are limited in a short window (the
    ``signup`` scope, refused ones too), the accounts made from one address in a long one
    (``SIGNUP_CREATED``: 429 before the insert once used up)."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "signup"

    @extend_schema(
        request=serializers.SignupInputSerializer,
        responses={201: serializers.SignupOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        values = validated_input(serializers.SignupInputSerializer, request)
        consume_rate(request, "signup")
        form = SignupForm(
            data={
                "username": values["username"],
                "email": values["email"],
                "password1": values["password"],
                "password2": values["password"],
            }
        )
        if not form.is_valid():
            raise invalid_form(form, {"password1": "password", "password2": "password"})
        if not may_create_account(request):
            raise throttled(SIGNUP_CREATED)
        try:
            user = form.save(request._request)
        except UsernameTaken as taken:
            raise drf_serializers.ValidationError({"username": [str(taken.message)]}) from None
        account_created(request)
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
        responses={200: serializers.MeSerializer, 400: CREDENTIALS_REFUSED},
    )
    def post(self, request: Request) -> Response:
        # DRF skips CSRF for anonymous requests; a login must still be checked, or another
        # site could sign the visitor into an account of its choosing.
        SessionAuthentication().enforce_csrf(request)
        user = authenticate_credentials(request)
        login(request._request, user)
        return Response(serializers.MeSerializer(user).data)


class LogoutApi(TakesNoBody, APIView):
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
        responses={200: serializers.TokenOutputSerializer, 400: CREDENTIALS_REFUSED},
    )
    def post(self, request: Request) -> Response:
        user = authenticate_credentials(request)
        return Response({"token": services.token_for(user=user)})
