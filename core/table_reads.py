"""A player read a table: the one call every answer that shows a table makes (the table
page, the API's table answer and its poll, a move's answer), so that the read itself
writes nothing.

``table_read`` records nothing while the request runs: once the answer has gone
(``core.after_response``; at once outside a request), outside any transaction of the read,
it sends ``table_was_read``, which the app that keeps presence and what each player has
seen answers (``notices.table_reads``, connected when that app starts). ``tables_read``
sends many reads at once (the long poll's woken answers, ``tables.api.waits``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.dispatch import Signal
from django.utils import timezone

from core.after_response import run_after_response

#: Sent with ``reads``, a list of ``TableRead``, once their answers have gone.
table_was_read = Signal()

#: Where ``table_read`` puts its reads inside ``reads_collected``; None: it schedules them.
_collected: ContextVar[list | None] = ContextVar("table_reads_collected", default=None)


@dataclass(frozen=True)
class TableRead:
    """User ``user_id`` was shown table ``table_id`` at ``version`` at ``at`` (a POSIX
    timestamp, seconds). ``seen``: their seats had seen that version already, so there is
    nothing of theirs to save. ``unread``: whether they have unread notices there, when
    the reader knows it (None: not known)."""

    user_id: int
    table_id: int
    version: int
    seen: bool
    at: float
    unread: bool | None = None


def table_read(
    *, user_id: int, table_id: int, version: int, seen: bool, unread: bool | None = None
) -> None:
    """Record, once the answer has gone, that user ``user_id`` was shown table
    ``table_id`` at ``version`` now (``TableRead`` says what ``seen`` and ``unread``
    mean). Never raises: a receiver's failure is logged (``core.after_response``)."""
    read = TableRead(user_id, table_id, version, seen, timezone.now().timestamp(), unread)
    collected = _collected.get()
    if collected is not None:
        collected.append(read)
    else:
        run_after_response(lambda: tables_read([read]))


@contextmanager
def reads_collected() -> Iterator[list[TableRead]]:
    """Within the block (and the sync code it calls), ``table_read`` appends its reads to
    the list this yields instead of scheduling them: the caller records them
    (``record_after_response``) or drops them for a later read of the same table (the
    long poll's look before it waits, ``tables.api.waits``)."""
    collected: list[TableRead] = []
    token = _collected.set(collected)
    try:
        yield collected
    finally:
        _collected.reset(token)


def record_after_response(reads: list[TableRead]) -> None:
    """Send ``table_was_read`` for ``reads`` once the current answer has gone."""
    if reads:
        run_after_response(lambda: tables_read(list(reads)))


def tables_read(reads: list[TableRead]) -> None:
    """Send ``table_was_read`` for ``reads`` now (their answers have gone)."""
    if reads:
        table_was_read.send(sender=None, reads=reads)
