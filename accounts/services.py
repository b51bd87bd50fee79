"""Writes on accounts. Keyword-only, atomic, used by both the API and the pages."""

from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import User


@transaction.atomic
def user_create(*, username: str, password: str, email: str = "", language: str = "") -> User:
    """Create an active player. The password must already have passed the validators."""
    user = User(username=username, email=email)
    if language:
        user.language = language
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


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
