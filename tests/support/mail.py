"""Reading the account e-mails the test outbox holds: reset keys and verification links."""

from __future__ import annotations

import re

from django.core import mail

RESET_LINK = re.compile(r"https?://[^/\s]+/accounts/password/reset/key/([^/\s]+)/")
CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/([^/\s]+)/)")


def mails_to(address: str) -> list:
    """The messages in the outbox addressed to ``address``, oldest first."""
    return [message for message in mail.outbox if address in message.to]


def reset_key(address: str) -> str:
    """The key of the one password-reset link mailed to ``address``."""
    (message,) = mails_to(address)
    return RESET_LINK.search(message.body).group(1)


def confirm_link(address: str) -> tuple[str, str]:
    """The path and key of the last verification link mailed to ``address``."""
    found = CONFIRM_LINK.search(mails_to(address)[-1].body)
    assert found, mails_to(address)[-1].body
    return found.group(1), found.group(2)
