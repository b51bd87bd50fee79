"""The request log's expected refusals as one line. Django logs every ``PermissionDenied``
it turns into a 403 (``django.request``, WARNING) with the exception's traceback: a
signed-in player opening ``/admin/`` (allauth's ``secure_admin_login`` refuses anyone not
staff) or a moderator opening a page their group may not see filled the log with stacks
that say nothing the line does not. Real errors keep theirs."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied


class PlainRefusals(logging.Filter):
    """For ``django.request``: a WARNING (or lower) whose exception is a
    ``PermissionDenied`` loses its traceback and keeps one line, the exception's own
    reason appended when it has one (``Forbidden (Permission denied): /admin/login/``;
    ``...: /accounts/login/ (Unable to determine client IP address)``). Any other record,
    every ERROR (a 500) among them, passes untouched. Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        exception = record.exc_info[1] if record.exc_info else None
        if record.levelno < logging.ERROR and isinstance(exception, PermissionDenied):
            reason = str(exception)
            record.msg = record.getMessage() + (f" ({reason})" if reason else "")
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


class RoutePaths(logging.Filter):
    """For ``django.request``: the path in the line (``Not Found: /invitacion/<token>/``)
    is the route it matched (``core.log_context.route_path``), never the path as sent,
    which may hold a share link's token or a reset key. Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if request is not None and isinstance(record.args, tuple) and len(record.args) == 2:
            from core.log_context import route_path  # (the URLconf is loaded by then)

            record.args = (record.args[0], route_path(request))
        return True
