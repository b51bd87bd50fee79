"""Error tracking with Sentry, switched on by ``SENTRY_DSN`` (config.settings.base).

What an error report may carry is decided here, not by each call site: never a hand, a
stock, a deal, a seed or an engine snapshot (R6, R31), nor a password, an API or invite
token, a cookie, an ``Authorization`` header or a request body. Three layers, each enough
on its own for what it covers:

1. ``sentry_sdk.init`` options: no personal data (``send_default_pii=False``), no local
   variables in stack frames, no request bodies, no tracing.
2. Sentry's own ``EventScrubber`` with our key names added, applied recursively.
3. ``scrub_event`` / ``scrub_breadcrumb`` (``before_send`` / ``before_breadcrumb``):
   drop request bodies, cookies, the query string and frame variables outright, filter
   headers, SQL parameters and every key in ``SECRET_KEYS`` at any depth, and blank
   strings shaped like a seed (64 hex digits), an API token (40 hex digits), a
   ``Token ...`` header value or an invite link's token.
"""

from __future__ import annotations

import re
from typing import Any

FILTERED = "[Filtered]"

# Key names (compared lower-cased, ``-`` read as ``_``) whose values never leave the server.
SECRET_KEYS = frozenset(
    {
        # the game's secrets (tables.models, dominoes.state snapshots)
        "hands",
        "hand",
        "dealt",
        "stock",
        "holdings",
        "drawn",
        "tiles",
        "tile",
        "seed",
        "seeds",
        "state",
        "snapshot",
        "game",
        "last_hand",
        "legal_moves",
        # credentials and sessions
        "password",
        "password1",
        "password2",
        "old_password",
        "new_password1",
        "new_password2",
        "token",
        "key",
        "invite_token",
        "authorization",
        "cookie",
        "cookies",
        "set_cookie",
        "sessionid",
        "csrftoken",
        "csrfmiddlewaretoken",
        "x_csrftoken",
        "idempotency_key",
        "http_authorization",
        "http_cookie",
        "http_x_csrftoken",
        "http_idempotency_key",
    }
)

_SECRET_TEXT = [
    (re.compile(r"\b[0-9a-fA-F]{64}\b"), FILTERED),  # a seed (or its public hash)
    (re.compile(r"\b[0-9a-fA-F]{40}\b"), FILTERED),  # a DRF token key
    (re.compile(r"(?i)\b(Token)\s+\S+"), rf"\1 {FILTERED}"),
    (re.compile(r"(/invitacion/|/invites/)[A-Za-z0-9_\-]+"), rf"\1{FILTERED}"),
]


def _is_secret_key(key: Any) -> bool:
    return isinstance(key, str) and key.lower().replace("-", "_") in SECRET_KEYS


def _scrub(value: Any) -> Any:
    """``value`` with every secret key's value replaced and secret-shaped text blanked."""
    if isinstance(value, dict):
        return {
            key: FILTERED if _is_secret_key(key) else _scrub(inner) for key, inner in value.items()
        }
    if isinstance(value, list | tuple):
        return [_scrub(inner) for inner in value]
    if isinstance(value, str):
        for pattern, replacement in _SECRET_TEXT:
            value = pattern.sub(replacement, value)
        return value
    return value


def _drop_frame_variables(event: dict) -> None:
    values = [
        *((event.get("exception") or {}).get("values") or []),
        *((event.get("threads") or {}).get("values") or []),
    ]
    for value in values:
        for frame in (value.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)


def scrub_event(event: dict, hint: dict | None = None) -> dict:
    """Sentry ``before_send``: the event without the game's secrets or credentials.

    ``event`` is Sentry's event dict (``request``, ``exception``, ``breadcrumbs``,
    ``extra``, ``contexts``...); returns a scrubbed copy (never None: the error itself is
    still reported).
    """
    request = event.get("request")
    if isinstance(request, dict):
        for part in ("data", "cookies", "query_string", "env"):
            if part in request:
                request[part] = FILTERED
    _drop_frame_variables(event)
    crumbs = event.get("breadcrumbs")
    if isinstance(crumbs, dict) and isinstance(crumbs.get("values"), list):
        crumbs["values"] = [scrub_breadcrumb(crumb) for crumb in crumbs["values"]]
    return _scrub(event)


def scrub_breadcrumb(crumb: dict, hint: dict | None = None) -> dict:
    """Sentry ``before_breadcrumb``: SQL breadcrumbs keep their statement (placeholders)
    but never their parameters (a hand's stock, a seed, a snapshot); every breadcrumb's
    secret keys and secret-shaped text are blanked."""
    if crumb.get("category") == "query" and isinstance(crumb.get("data"), dict):
        crumb = {**crumb, "data": {k: v for k, v in crumb["data"].items() if k != "db.params"}}
    return _scrub(crumb)


def init_error_tracking(dsn: str, *, environment: str = "production", transport=None) -> None:
    """Start Sentry for this process (web, Celery worker or beat) with the Django and
    Celery integrations and the scrubbers above.

    ``dsn``: the project's DSN (``SENTRY_DSN``); ``environment``: a label
    (``SENTRY_ENVIRONMENT``); ``transport``: tests pass one that keeps the events.
    """
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.scrubber import DEFAULT_DENYLIST, EventScrubber

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        traces_sample_rate=0,
        event_scrubber=EventScrubber(
            denylist=[*DEFAULT_DENYLIST, *sorted(SECRET_KEYS)], recursive=True
        ),
        before_send=scrub_event,
        before_breadcrumb=scrub_breadcrumb,
        transport=transport,
    )
