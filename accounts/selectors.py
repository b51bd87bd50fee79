"""Reads about accounts that the other apps use; imports no app above accounts."""

from __future__ import annotations

from allauth.account.models import EmailAddress


def verified_email(user) -> str:
    """``user.email`` when the player has verified it (allauth's ``EmailAddress``), else
    ``""``: notices are mailed only to a verified address."""
    if not user or not user.email:
        return ""
    verified = EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=True)
    return user.email if verified.exists() else ""
