"""Accounts API: one view per endpoint. Shapes live in accounts.serializers."""

from django.contrib.auth import authenticate, login, logout
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import serializers
from accounts.services import token_for, user_create


class InvalidCredentials(exceptions.APIException):
    status_code = 400
    code = "invalid_credentials"
    default_detail = _("Usuario o contraseña incorrectos.")


def _authenticate(request: Request):
    data = serializers.CredentialsInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    user = authenticate(
        request._request,
        username=data.validated_data["username"],
        password=data.validated_data["password"],
    )
    if user is None:
        raise InvalidCredentials()
    return user


class SignupApi(APIView):
    """Create an account; answer with its API token (the mobile app is signed in)."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "signup"

    @extend_schema(
        request=serializers.SignupInputSerializer,
        responses={201: serializers.SignupOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        data = serializers.SignupInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lang = get_language()
        user = user_create(**data.validated_data, language=lang if lang in ("es", "en") else "")
        body = {"username": user.username, "token": token_for(user=user)}
        return Response(body, status=status.HTTP_201_CREATED)


class LoginApi(APIView):
    """Session sign-in for browser clients (fetch with the CSRF token); returns the user."""

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
    """Exchange username and password for the API token (mobile clients)."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_scope = "login"

    @extend_schema(
        request=serializers.CredentialsInputSerializer,
        responses={200: serializers.TokenOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        user = _authenticate(request)
        return Response({"token": token_for(user=user)})


class MeApi(APIView):
    """The signed-in player's profile and preferences. Always the caller's own."""

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
        data.save()
        return Response(data.data)
