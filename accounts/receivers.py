"""Reactions to allauth's signals (connected in AccountsConfig.ready)."""

from allauth.account.signals import password_reset
from django.dispatch import receiver
from rest_framework.authtoken.models import Token


@receiver(password_reset)
def revoke_tokens_on_password_reset(sender, request, user, **kwargs) -> None:
    """A password reset ends every session (Django's session hash follows the password)
    and, here, the API token too: whoever had the old password loses every way in."""
    Token.objects.filter(user=user).delete()
