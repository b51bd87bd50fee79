"""Whether a player has something unread at a table, as an SQL expression that a query
loading the table fetches with it (``tables.services.locking``: the mover's seats), so the
answer knows whether to mark it read without a query of its own. What is unread is the
``notices`` app's (it sits above ``tables``): it registers the expression at startup
(``NoticesConfig.ready``), so ``tables`` imports none of it. Until one is registered (an
install without notices) nothing is unread."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import BooleanField, Expression, Value

#: ``expression(user, table_id)``: ``user`` a user or id, ``table_id`` an id or an
#: ``OuterRef``; a boolean expression.
UnreadExpression = Callable[[object, object], Expression]
_registered: list[UnreadExpression] = []


def register(expression: UnreadExpression) -> None:
    """Use ``expression`` for ``unread_at_table`` (the last one registered counts)."""
    _registered[:] = [expression]


def unread_at_table(user, table_id) -> Expression:
    """A boolean expression: ``user`` (a user or an id) has unread notices at table
    ``table_id`` (an id or an ``OuterRef``); ``False`` when no app registered one."""
    if not _registered:
        return Value(False, output_field=BooleanField())
    return _registered[0](user, table_id)
