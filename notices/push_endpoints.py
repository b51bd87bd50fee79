"""Which Web Push endpoints the server sends to. The worker POSTs each push to the
address a browser handed out, so that address decides where the server connects: only
``https`` on a host of a known push service is taken (``WEB_PUSH_ALLOWED_HOSTS``, the
browsers' services: Google's FCM, Mozilla's autopush, Apple's web push, Microsoft's WNS),
on the default port, without user-info, and never an IP literal in any spelling
(``127.0.0.1``, ``2130706433``, ``0177.0.0.1``, ``0x7f000001``, ``[::ffff:127.0.0.1]``).
The API checks it before storing a subscription, the sender again before each push.

A host is matched lower-cased and without the root's trailing dot, exactly or, for a
pattern that starts with a dot (``.push.apple.com``), as that domain or one under it
(a dot boundary: ``fcm.googleapis.com.example.org`` and ``evilfcm.googleapis.com`` are
not FCM's host).
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.utils.http import is_same_domain

#: A host name: dot-separated labels of ASCII letters, digits and hyphens.
HOST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+")
#: A last label that is a number (decimal, octal or hexadecimal): the host is an IPv4
#: address in one of the spellings resolvers take, never a name under a real top domain.
NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*")
#: The only port taken when written out: https's own.
HTTPS_PORT = 443


def canonical(endpoint: str, allowed_hosts: list[str] | None = None) -> str | None:
    """``endpoint`` (a URL) in its one spelling (host lower-cased, no trailing dot, no
    ``:443``) when it is an address of an allowed push service, else ``None``.
    ``allowed_hosts`` defaults to ``settings.WEB_PUSH_ALLOWED_HOSTS`` (exact hosts, and
    ``.domain`` or ``*.domain`` for a domain and the hosts under it)."""
    if not isinstance(endpoint, str) or not endpoint.isascii():
        return None
    if any(character <= " " or character in "\\\x7f" for character in endpoint):
        return None
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:  # a port that is not a number, a bracket left open
        return None
    if parts.scheme != "https" or parts.fragment or "@" in parts.netloc:
        return None
    if "[" in parts.netloc or port not in (None, HTTPS_PORT) or parts.netloc.endswith(":"):
        return None
    host = (parts.hostname or "").removesuffix(".")
    if not HOST_NAME.fullmatch(host) or NUMBER.fullmatch(host.rsplit(".", 1)[-1]):
        return None
    if _is_ip_address(host) or not _allowed(host, allowed_hosts):
        return None
    return urlunsplit(("https", host, parts.path or "/", parts.query, ""))


def allowed(endpoint: str) -> bool:
    """Whether the server may send to ``endpoint`` (``canonical`` finds it allowed)."""
    return canonical(endpoint) is not None


def _is_ip_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _allowed(host: str, allowed_hosts: list[str] | None) -> bool:
    patterns = settings.WEB_PUSH_ALLOWED_HOSTS if allowed_hosts is None else allowed_hosts
    for pattern in patterns:
        pattern = pattern.strip().lower().removesuffix(".")
        if pattern.startswith("*."):
            pattern = pattern[1:]
        if pattern not in ("", ".") and is_same_domain(host, pattern):
            return True
    return False
