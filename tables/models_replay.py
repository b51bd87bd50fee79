"""What a finished match keeps beside its record: its analysis and its public
replay link. Imported by ``tables.models``, so Django sees them as ``tables``
models; they name the table as ``"tables.Table"`` to keep the import one-way."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchAnalysis(models.Model):
    """The analysis of a finished match (``dominoes.analysis``), one per table, computed at
    most once by ``tables.tasks.analyse_match`` (``tables.services.analysis_run``).

    ``status`` goes queued -> running -> done (or failed; a new request queues a failed or
    stale one again). ``done``/``total`` count the judged moves while it runs; ``result``
    is the record's ``analysis`` section (docs/RECORD.md) once done. ``updated_at`` moves
    with every progress step: a running row whose worker died stops moving.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("En cola")
        RUNNING = "running", _("Analizando")
        DONE = "done", _("Hecho")
        FAILED = "failed", _("Falló")

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="analysis", verbose_name=_("mesa")
    )
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.QUEUED, verbose_name=_("estado")
    )
    done = models.PositiveIntegerField(default=0, verbose_name=_("jugadas analizadas"))
    total = models.PositiveIntegerField(default=0, verbose_name=_("jugadas por analizar"))
    result = models.JSONField(null=True, blank=True, editable=False, verbose_name=_("resultado"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("pedido por"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("pedido"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("actualizado"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("terminado"))

    class Meta:
        verbose_name = _("análisis de la partida")
        verbose_name_plural = _("análisis de partidas")

    def __str__(self) -> str:
        return f"Análisis de la mesa {self.table_id} ({self.status})"


class PublicReplay(models.Model):
    """A finished match's replay made public by one of its players: anyone with the link
    ``/partida/<token>/`` sees it (and its analysis once done), signed in or not. The
    token is random (``secrets.token_urlsafe``, 32 bytes); deleting the row revokes it."""

    table = models.OneToOneField(
        "tables.Table",
        on_delete=models.CASCADE,
        related_name="public_replay",
        verbose_name=_("mesa"),
    )
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("publicada por"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("publicada"))

    class Meta:
        verbose_name = _("repetición pública")
        verbose_name_plural = _("repeticiones públicas")

    def __str__(self) -> str:
        return f"Repetición pública de la mesa {self.table_id}"
