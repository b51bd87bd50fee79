"""A move played at most once per ``Idempotency-Key``: the first answer is kept with the
move, in one transaction, and a retry gets it back (``MoveRequest``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.errors import TableError, idempotency_key_reused
from tables.models import MoveRequest
from tables.services import statements, transitions


class Answer(Protocol):
    """What the caller answered a move with (a DRF ``Response`` is one)."""

    status_code: int
    data: Any


AnswerT = TypeVar("AnswerT", bound=Answer)


def move_play_once(
    *,
    table_id: int,
    user,
    key: str,
    request_hash: str,
    play: Callable[[transitions.Locked], AnswerT],
    refused: Callable[[TableError], AnswerT],
) -> AnswerT | MoveRequest:
    """Play at most once per ``(user, table, key)``. ``play(locked)`` checks the request,
    makes the move (``move_play(..., locked=locked)``: the table locked here, with its
    seats) and returns its answer; ``refused(error)`` is the answer to a ``TableError`` it
    raised. That answer (``status_code``, ``data``: JSON) is stored in the same
    transaction as the move, and returned; a retry with the same ``key`` and
    ``request_hash`` (the body's SHA-256, hex) gets the stored ``MoveRequest`` instead.
    The move's own writes are sent with that INSERT, in one round trip
    (``Locked.deferred``): nothing the answer is built from is read back.

    The table row is locked first, and whether the key was answered before is read with
    its seats, once the lock is held, so requests for one table queue up and a retry
    racing its original reads the stored answer once the original has committed.
    Anything else ``play`` raises (a body that fails validation) is not remembered:
    nothing happened, and a retry gets the same error. Raises ``TableError``:
    ``not_found`` (404, not seated: strangers leave no row behind),
    ``idempotency_key_reused`` (422, the key answered another body).
    """
    with transaction.atomic():
        # The move's writes wait for the answer's INSERT: one round trip for them all.
        locked = replace(transitions.lock_for_move(table_id, user, key), deferred=[])
        transitions.seats_of_user(locked.seats, user)  # missing, or not the caller's table: 404
        if locked.table.remembered_id is not None:
            if locked.table.remembered_hash != request_hash:
                raise idempotency_key_reused()
            return MoveRequest.objects.get(pk=locked.table.remembered_id)
        # No savepoint around the play: it runs in this transaction (``locked``), a
        # refusal is raised before anything is written, and an overdue turn's forfeit
        # (R27), which move_play saves before refusing with turn_expired, must stay done.
        try:
            answer = play(locked)
        except TableError as error:
            answer = refused(error)
        remembered = MoveRequest(
            user=user,
            table_id=table_id,
            key=key,
            request_hash=request_hash,
            status_code=answer.status_code,
            body=answer.data,
        )
        statements.send(*locked.deferred, statements.insert(MoveRequest, [remembered]))
        return answer


def move_requests_forget() -> int:
    """Delete the remembered answers older than ``IDEMPOTENCY_SECONDS``: a client retries
    within minutes, not days. Returns how many were deleted."""
    since = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_SECONDS)
    deleted, _by_model = MoveRequest.objects.filter(created_at__lt=since).delete()
    return deleted
