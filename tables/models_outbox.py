"""The transactional outbox: each side effect of a write (a bot's turn, a notice, an
analysis) is a ``TableEvent`` row written in the write's own transaction, so it commits or
rolls back with it. ``tables.services.outbox`` sends it once the write commits and marks it
delivered; the beat relay sends again what is still undelivered. Imported by
``tables.models``; the table is named as ``"tables.Table"`` to keep the import one-way."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class TableEvent(models.Model):
    """One Celery task to send after a committed write, by task name.

    ``table`` is the table the write changed (``None`` for a side effect of no table, a
    moderator's action), ``version`` the table's version when the event was written: a
    table's events are sent in ``(version, id)`` order. ``args`` are the task's positional
    arguments and ``options`` its other ``apply_async`` options (JSON); a ``countdown`` is
    kept as ``not_before``, the moment the task may run. ``delivered_at`` stays ``None``
    until the broker has taken the task; ``attempts`` counts the sends tried. Delivery is at
    least once: every task it sends does nothing the second time."""

    # No constraint: a row may outlive its table (its task then finds none and does nothing),
    # and writing one adds no lock on the table's row.
    table = models.ForeignKey(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    version = models.PositiveIntegerField(default=0)
    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    options = models.JSONField(default=dict)
    not_before = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "version", "id"]
        indexes = [
            # The relay reads only what is undelivered, a table's rows in their order.
            models.Index(
                fields=["table", "version", "id"],
                name="table_event_pending",
                condition=Q(delivered_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id}@{self.version} {self.task}{tuple(self.args)}"
