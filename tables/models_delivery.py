"""The service's own bookkeeping beside a table: remembered move answers (Idempotency-Key)
and e-mail deliveries, each recorded so that nothing is applied or sent twice. Imported by
``tables.models``; they name the table as ``"tables.Table"`` to keep the import one-way."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MoveRequest(models.Model):
    """A remembered ``POST moves`` answer, by the client's ``Idempotency-Key``: a retried
    request with the same key gets the first response again and changes nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE)
    key = models.CharField(max_length=128)
    request_hash = models.CharField(max_length=64, default="")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "table", "key"], name="move_request_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.key} -> {self.status_code}"


class EmailDelivery(models.Model):
    """One e-mail to one person about one event, recorded before it is sent so that it is
    never sent twice (a retried or duplicated task, a batch re-run after a crash).

    ``kind`` is the mail (``turn``, ``reminder``, ``match_over``, ``rematch``); ``key`` tells its
    events apart at a table: the table version for a turn or a reminder, ``""`` for the
    end of the match. ``status``: ``sending`` (claimed), ``sent``, or ``failed`` (the server
    refused the address; not retried). ``sent_at`` is written the moment the mail server
    took the mail, before the rest is marked: a claim left ``sending`` past
    ``DELIVERY_LEASE_SECONDS`` (the process died, the database dropped) is reclaimed by
    the beat's ``notices.tasks.reclaim_deliveries``: ``sent`` when it has ``sent_at``
    (never sent again), else deleted and the mail retried. A send that failed before
    reaching the server deletes its claim, so the task's retry sends it.
    """

    class Kind(models.TextChoices):
        TURN = "turn", _("Tu turno")
        REMINDER = "reminder", _("Recordatorio")
        MATCH_OVER = "match_over", _("Fin de la partida")
        REMATCH = "rematch", _("Revancha")

    class Status(models.TextChoices):
        SENDING = "sending", _("Enviando")
        SENT = "sent", _("Enviado")
        FAILED = "failed", _("Rechazado")

    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="email_deliveries"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_deliveries"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SENDING)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "recipient", "kind", "key"], name="email_delivery_once"
            )
        ]
        indexes = [
            # reclaim_deliveries reads the claims left ``sending``, oldest first
            models.Index(
                fields=["created_at"],
                name="email_delivery_sending",
                condition=models.Q(status="sending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.kind} {self.key} -> {self.recipient_id}: {self.status}"
