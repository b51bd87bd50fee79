"""The client's address, for every per-address rate limit.

A client can write anything into ``X-Forwarded-For``; only the proxies in front of the
app append trustworthy entries, one each, on the right. So with ``NUM_PROXIES=0`` (the
default: nothing in front, or a proxy that does not add the header) the address is the
socket's (``REMOTE_ADDR``); with ``NUM_PROXIES=N`` it is the N-th entry from the right,
the address the outermost of those proxies saw. The header is never trusted as sent: a
made-up address per request would skip every anonymous limit.
"""

from __future__ import annotations

from rest_framework.settings import api_settings


def client_address(request) -> str:
    """The address to count ``request`` (a Django or DRF request) under, as text.

    ``REST_FRAMEWORK["NUM_PROXIES"]`` (from the ``NUM_PROXIES`` variable) says how many
    entries of ``X-Forwarded-For``, from the right, were written by our own proxies. A
    header with fewer entries than that gives its first one; no header, or 0 proxies,
    gives ``REMOTE_ADDR`` ("" when the server set none). DRF's rule, for every caller.
    """
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = api_settings.NUM_PROXIES or 0
    if proxies <= 0:
        return remote
    forwarded = [
        entry.strip() for entry in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if entry.strip()
    ]
    if not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]
