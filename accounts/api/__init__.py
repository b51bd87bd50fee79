"""Accounts API: one view per endpoint. Shapes live in accounts.serializers.

Thin views over django-allauth's forms and flows (sign-up, sign-in by username or e-mail,
verification, password reset and change), answering with the API's error contract
(``{code, detail, fields}``, core.api_errors) rather than allauth's headless shape.
allauth's rate limits apply (per client address and per account or e-mail) on top of the
DRF scopes; over either limit the answer is ``429 throttled``.
"""

from accounts.api.profile import (
    AccountDeleteApi,
    DataExportApi,
    EmailApi,
    EmailResendApi,
    EmailVerifyApi,
    MeApi,
    PasswordChangeApi,
    PasswordResetApi,
    PasswordResetKeyApi,
    SignOutEverywhereApi,
)
from accounts.api.session import LoginApi, LogoutApi, SignupApi, TokenApi

__all__ = [
    "AccountDeleteApi",
    "DataExportApi",
    "EmailApi",
    "EmailResendApi",
    "EmailVerifyApi",
    "LoginApi",
    "LogoutApi",
    "MeApi",
    "PasswordChangeApi",
    "PasswordResetApi",
    "PasswordResetKeyApi",
    "SignOutEverywhereApi",
    "SignupApi",
    "TokenApi",
]
