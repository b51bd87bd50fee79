"""Writes on accounts. Keyword-only, used by both the API and the pages.

Sign-up, sign-in, verification and password flows are django-allauth's (forms in
``accounts.forms``, fitted by ``accounts.adapter``); this module holds what the site adds:
tokens, signing out everywhere, deleting an account and the data export.
"""

from __future__ import annotations

from allauth.account import signals as allauth_signals
from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from django.contrib.auth import update_session_auth_hash
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts import hooks
from accounts.models import User


def signup_complete(*, request: HttpRequest, user: User) -> None:
    """After an API sign-up (``accounts.forms.SignupForm.save``): allauth's signal and
    the verification link to the new address (no session: the app uses its token)."""
    allauth_signals.user_signed_up.send(sender=User, request=request, user=user)
    address = EmailAddress.objects.filter(user=user, primary=True).first()
    if address is not None:
        send_verification_email_to_address(request, address, signup=True)


def token_for(*, user: User) -> str:
    """The user's API token, created on first use (one token per user)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def user_set_language(*, user: User, language: str) -> User:
    """Save ``language`` (a ``User.Language`` value: ``"es"`` or ``"en"``) as the player's
    language, the one pages without a cookie and e-mails use. Raises ``ValueError`` for
    another value."""
    if language not in User.Language.values:
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user


def sign_out_everywhere(*, user: User, request: HttpRequest | None = None) -> None:
    """End every session of ``user`` (``User.session_generation`` + 1 changes the hash
    Django checks on each request) and delete the API token. With ``request`` (the
    settings page) that session stays signed in."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
        Token.objects.filter(user=user).delete()
    user.refresh_from_db(fields=["session_generation"])
    if request is not None and request.user.is_authenticated and request.user.pk == user.pk:
        update_session_auth_hash(request, user)


def account_delete(*, user: User) -> None:
    """Delete ``user``'s account, in one transaction: either all of it happens or nothing
    does. The apps above accounts do their part first (``accounts.hooks``' deletion
    steps, stage by stage): every active table the player sits at is abandoned (R26) and
    skipped if it ended or they left it meanwhile (``tables.departures``), the other
    players' notices of the tables where they still hold a seat stop naming them
    (``notices.departures``), every seat they held keeps its place as «jugador
    eliminado» and the tables they created lose their creator. Then the user row goes
    with what hangs from it: e-mail addresses, API token, idempotency records. Finished
    tables' moves and hands are untouched, so their records still replay.

    Raises nothing of its own; an unexpected ``TableError`` from a table's abandon goes
    up (and nothing happens)."""

    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        hooks.run_deletion_steps(user)
        user.delete()


def account_export(*, user: User) -> dict:
    """Everything the service keeps about ``user``, as JSON-ready data: the profile and
    the e-mail addresses, then the parts the apps above accounts register
    (``accounts.hooks``' export parts, in ``INSTALLED_APPS`` order): every table (seats
    by name, status, scores) with the record (``dominoes-record/1``) of every finished
    match (``tables.departures``), the talk messages they wrote and the reports they made
    (``moderation.account_data``). A running hand is never included (R31)."""

    return {
        "format": "domino-account-export/1",
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined.isoformat(),
            "language": user.language,
            "pip_colour": user.pip_colour,
            "email_notifications": user.email_notifications,
        },
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("-primary", "email")
        ],
        **hooks.export_parts(user),
    }
