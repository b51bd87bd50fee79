"""The transactional outbox: each event of a write (``tables.events``: a turn began, a
hand ended, a seat was taken, ...) is a ``TableEvent`` row written in the write's own
transaction, so it commits or rolls back with it. ``tables.services.outbox`` hands it to
its subscribers once the write commits and marks it delivered; the beat relay delivers
again what is still undelivered. Imported by ``tables.models``; the table is named as
``"tables.Table"`` to keep the import one-way."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class TableEvent(models.Model):
    """One event of a committed write, to hand to its subscribers (``tables.events``).

    ``table`` is the table the write changed (``None`` for an event of no table, a
    moderator's action, an analysis asked for), ``version`` the table's version the write
    produced: a table's events are delivered in ``(version, id)`` order. ``kind`` names
    the event's class (``tables.events.KINDS``) and ``payload`` holds its other fields
    (JSON). ``delivered_at`` stays ``None`` until every subscriber has taken the event;
    ``attempts`` counts the deliveries tried. Delivery is at least once: every subscriber
    does nothing the second time."""

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
    kind = models.CharField(max_length=50)
    payload = models.JSONField(default=dict)
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
        return f"{self.table_id}@{self.version} {self.kind} {self.payload}"
