"""When a verification link may be mailed again: allauth sends it at most as often as
``ACCOUNT_RATE_LIMITS["confirm_email"]`` allows per address ("1/3m/key": once every 3
minutes), and silently sends nothing sooner. The e-mail page says the limit in words and,
inside it, how long is left ("Puedes pedirlo otra vez dentro de 3 minutos").

The count is allauth's own (its cache entries, read, never written here), so what the page
says is what allauth will do."""

from __future__ import annotations

import math
import time

from allauth.core.internal.ratelimit import get_cache_key, parse_rates
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

ACTION = "confirm_email"


def _rates() -> list:
    return [
        rate for rate in parse_rates(settings.ACCOUNT_RATE_LIMITS.get(ACTION)) if rate.per == "key"
    ]


def every_seconds() -> int:
    """The limit's window in seconds (180 for "1/3m/key"); 0 without a limit."""
    return int(max((rate.duration for rate in _rates()), default=0))


def wait_seconds(request: HttpRequest, email: str) -> int:
    """How long until a link may be mailed to ``email`` again, in whole seconds; 0 now."""
    now = time.time()
    wait = 0.0
    for rate in _rates():
        key = get_cache_key(
            request, app="allauth.account", action=ACTION, rate=rate, key=email.lower()
        )
        history = [hit for hit in cache.get(key, []) if hit > now - rate.duration]
        if len(history) >= rate.amount:  # a place frees when the amount-th newest hit expires
            wait = max(wait, sorted(history, reverse=True)[rate.amount - 1] + rate.duration - now)
    return math.ceil(wait)


def minutes_words(seconds: int) -> str:
    """``"3 minutos"``, ``"1 minuto"`` (rounded up to whole minutes, at least 1)."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext("%(n)d minuto", "%(n)d minutos", minutes) % {"n": minutes}


def resend_sentence(request: HttpRequest, email: str) -> str:
    """What the page says beside "Enviar el enlace otra vez" for ``email``: how long is
    left while the limit holds ("Puedes pedirlo otra vez dentro de 2 minutos."), else the
    limit ("Puedes pedirlo una vez cada 3 minutos."); ``""`` without a limit."""
    wait = wait_seconds(request, email)
    if wait:
        return _("Puedes pedirlo otra vez dentro de %(time)s.") % {"time": minutes_words(wait)}
    every = every_seconds()
    if not every:
        return ""
    return _("Puedes pedirlo una vez cada %(time)s.") % {"time": minutes_words(every)}


def too_soon_sentence(wait: int) -> str:
    """The answer to asking again inside the limit (nothing is sent)."""
    return _(
        "Ya te enviamos el enlace hace poco y sigue valiendo. Puedes pedirlo otra vez dentro"
        " de %(time)s."
    ) % {"time": minutes_words(wait)}
