"""A move played at most once per ``Idempotency-Key``: the API layer's record of its
answers (``MoveRequest``). The view opens the transaction, locks the table through the
service (``services.move_lock``), asks here whether the key was answered, runs the move
(``services.move_play``) and stores its answer here before the transaction commits, so
the answer and the move commit or roll back together and a retry gets the first answer."""

from __future__ import annotations

import hashlib
import json

from rest_framework.response import Response

from tables.api.common import etag_of
from tables.errors import idempotency_key_reused
from tables.models import MoveRequest


def request_fingerprint(data) -> str:
    """SHA-256 (hex) of the request body as canonical JSON: a key reused for another body
    is refused instead of answered with the first move's result."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def remembered_answer(*, user, table_id: int, key: str, fingerprint: str) -> Response | None:
    """The answer stored for ``(user, table_id, key)``, as first sent, or ``None`` when the
    key is new. Read after the table's lock (``services.move_lock``): the query's snapshot
    is taken once the lock is held, so a retry racing its original sees the answer the
    original committed. Raises ``TableError`` ``idempotency_key_reused`` (422) when the
    key answered another body (``fingerprint``: ``request_fingerprint``)."""
    remembered = MoveRequest.objects.filter(user=user, table_id=table_id, key=key).first()
    if remembered is None:
        return None
    if remembered.request_hash != fingerprint:
        raise idempotency_key_reused()
    return replayed(remembered)


def remember_answer(*, user, table_id: int, key: str, fingerprint: str, answer: Response) -> None:
    """Store ``answer`` (its status and JSON data) for ``(user, table_id, key)``, in the
    caller's transaction: it commits with the move it answers."""
    MoveRequest.objects.create(
        user=user,
        table_id=table_id,
        key=key,
        request_hash=fingerprint,
        status_code=answer.status_code,
        body=answer.data,
    )


def replayed(remembered: MoveRequest) -> Response:
    """A stored answer, as first sent (with the table view's ETag when it was one)."""
    response = Response(remembered.body, status=remembered.status_code)
    body = remembered.body
    if remembered.status_code == 200 and isinstance(body, dict) and "your_seat" in body:
        first = (body.get("your_seats") or [body["your_seat"]])[0]
        response["ETag"] = etag_of(body["id"], body["version"], first)
    return response
