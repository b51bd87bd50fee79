"""What every log line of a request carries, on django-structlog.

``RequestLogMiddleware`` (django-structlog's ``RequestMiddleware``) binds, for the whole
request: ``request_id`` (the proxy's ``X-Request-ID`` when a trusted proxy is in front,
else a new UUID), ``user_id`` (the session's, or the API token's once DRF has read it:
``TokenAuthentication`` here) and ``ip`` (``core.client_address``'s, never a header as
sent); the table views add ``table_id`` and ``version`` (``bind``). It logs
``request_started`` and ``request_finished`` (``code``), with ``request`` as
``"POST /api/v1/tables/12/moves/"``: the route the path matched, each parameter that is
not a number written as its name (``/invitacion/<token>/``), and no query string, so no
share-link token, reset key or unsubscribe token reaches a log line.

The bound fields travel into every Celery task the request sends (django-structlog's
Celery support, ``DJANGO_STRUCTLOG_CELERY_ENABLED``: the task's headers), and on from
there into the tasks those send, so one ``grep <request_id>`` follows a move from its
POST to the bot's answer and the notices it caused.
"""

from __future__ import annotations

import re
import uuid

import structlog
from django.dispatch import receiver
from django.urls import Resolver404, resolve
from django_structlog import signals
from django_structlog.middlewares import RequestMiddleware
from rest_framework import authentication
from rest_framework.settings import api_settings

from core.client_address import client_address

#: A request id a proxy may give: what request-id generators write (UUIDs, hex, base64url,
#: nginx's ``$request_id``), at most 128 characters; anything else is replaced.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:@+=-]{1,128}")
# A route's parameter: a path converter's ``<int:table_id>`` or a regex's ``(?P<key>...)``
# (one level of nested parentheses, as allauth's routes have).
_PARAMETER = re.compile(r"<(?:\w+:)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>(?:[^()]|\([^()]*\))*\)")
# A parameter value written as is: a number (ids), nothing that could be a secret.
_NUMBER = re.compile(r"[0-9]{1,20}")


def bind(**fields) -> None:
    """Add ``fields`` (``table_id=12, version=40``) to every later line of this request
    or task. Values must be ids and numbers, never a tile, a seed or a token."""
    structlog.contextvars.bind_contextvars(**fields)


def request_id_for(request) -> str:
    """The id of ``request``'s lines: its ``X-Request-ID`` when the proxies in front are
    trusted (``NUM_PROXIES`` above 0, the rule ``core.client_address`` follows for
    ``X-Forwarded-For``) and the header is a plain id (``REQUEST_ID``), else a new UUID4.
    With no proxy the header is the client's own and never trusted: a client could
    otherwise give its lines another request's id."""
    sent = request.META.get("HTTP_X_REQUEST_ID", "")
    if (api_settings.NUM_PROXIES or 0) > 0 and REQUEST_ID.fullmatch(sent):
        return sent
    return str(uuid.uuid4())


def route_path(request) -> str:
    """``request``'s path as a log line names it: the route it matched with each number
    parameter's value (``/api/v1/tables/12/moves/``) and every other parameter as its
    name (``/invitacion/<token>/``); ``/<unknown>`` for a path no route matches, and a
    prefix route's rest as ``…`` (``/api/…``). Never the query string."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return "/<unknown>"

    def written(parameter: re.Match) -> str:
        name = parameter["name"] or parameter["group"]
        value = match.kwargs.get(name)
        if isinstance(value, int) or (isinstance(value, str) and _NUMBER.fullmatch(value)):
            return str(value)
        return f"<{name}>"

    route = match.route or ""
    text = _PARAMETER.sub(written, route).replace("\\", "")
    prefix_only = route.startswith("^") and not route.endswith("$")
    text = text.lstrip("^").rstrip("$")
    return "/" + text + ("…" if prefix_only else "")


class RequestLogMiddleware(RequestMiddleware):
    """django-structlog's request middleware, its ``request`` field the route
    (``route_path``) instead of the path and query as sent."""

    @staticmethod
    def format_request(request) -> str:
        return f"{request.method} {route_path(request)}"


@receiver(signals.bind_extra_request_metadata)
def _bind_request(request, logger, log_kwargs, **kwargs) -> None:
    """Before ``request_started``: the trusted or minted request id replaces the one
    django-structlog took from the header as sent, the client address is the rate
    limits' (django-structlog's own IP lookup is off: it trusts headers), and the user
    agent is left out (it fingerprints a player and says nothing about the service)."""
    structlog.contextvars.bind_contextvars(
        request_id=request_id_for(request), ip=client_address(request)
    )
    log_kwargs.pop("user_agent", None)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, which also binds ``user_id`` for the request's later
    lines (the middleware only sees the session's user before the view runs)."""

    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None:
            bind(user_id=found[0].pk)
        return found
