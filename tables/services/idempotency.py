"""The answers remembered per ``Idempotency-Key`` (``MoveRequest``, written by the API
layer in the move's transaction: ``tables.api.idempotency``) are kept for
``IDEMPOTENCY_SECONDS``: a client retries within minutes, not days."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tables.models import MoveRequest


def move_requests_forget() -> int:
    """Delete the remembered answers older than ``IDEMPOTENCY_SECONDS``: a client retries
    within minutes, not days. Returns how many were deleted."""
    since = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_SECONDS)
    deleted, _by_model = MoveRequest.objects.filter(created_at__lt=since).delete()
    return deleted
