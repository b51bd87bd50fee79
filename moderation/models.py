"""Table talk, mutes, reports and the moderation log.

A ``TalkMessage`` belongs to a table and is written by one of its seated players. At a
partnership table (4 seats) a message written while a hand is running is ``held``: it
reaches nobody but its author until that hand ends (or the table ends), and is then shown
after the move it followed (``hand_number``, ``after_sequence``). Nothing here is served
directly: what a player reads goes through ``moderation.selectors``; writes go through
``moderation.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: The longest message, in characters.
MAX_TALK_LENGTH = 300


class TalkMessage(models.Model):
    """One message of a table's talk: free ``text`` or a quick ``phrase`` (its key, shown
    in each reader's language). ``hand_number`` is the hand running when it was written
    (null before the match starts), ``after_sequence`` the sequence of the last move of
    that hand then (null: before the hand's first move). ``removed_at`` is set when a
    moderator removes it (the row stays, for the log and the reports)."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="talk_messages"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="talk_messages"
    )
    seat = models.PositiveSmallIntegerField(help_text=_("El asiento del autor (desde 0)."))
    text = models.CharField(max_length=MAX_TALK_LENGTH, blank=True)
    phrase = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    after_sequence = models.PositiveSmallIntegerField(null=True, blank=True)
    held = models.BooleanField(
        default=False,
        help_text=_("Escrito durante una mano de parejas: se entrega al acabar la mano."),
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "id"]
        verbose_name = _("mensaje")
        verbose_name_plural = _("mensajes")
        indexes = [models.Index(fields=["table", "id"], name="talk_table_id")]

    def __str__(self) -> str:
        return f"{self.table_id} #{self.pk} {self.author}"


class TalkMute(models.Model):
    """``user`` does not read a table's talk (``table``) or a person's messages anywhere
    (``muted_user``): exactly one of the two is set."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, null=True, blank=True)
    muted_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("silencio")
        verbose_name_plural = _("silencios")
        constraints = [
            models.CheckConstraint(
                condition=Q(table__isnull=True, muted_user__isnull=False)
                | Q(table__isnull=False, muted_user__isnull=True),
                name="talk_mute_one_target",
            ),
            models.UniqueConstraint(
                fields=["user", "table"],
                name="talk_mute_unique_table",
                condition=Q(table__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["user", "muted_user"],
                name="talk_mute_unique_user",
                condition=Q(muted_user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.table or self.muted_user}"


class Report(models.Model):
    """A player's report of a message or of a player, with a reason; ``open`` until a
    moderator handles it (``handled_by``, ``handled_at``)."""

    class Reason(models.TextChoices):
        INSULTS = "insults", _("Insultos")
        CHEATING = "cheating", _("Trampa con la pareja")
        SPAM = "spam", _("Spam")
        OTHER = "other", _("Otro")

    class Status(models.TextChoices):
        OPEN = "open", _("Abierto")
        HANDLED = "handled", _("Atendido")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_received"
    )
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="reports")
    message = models.ForeignKey(
        TalkMessage, on_delete=models.CASCADE, null=True, blank=True, related_name="reports"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.CharField(max_length=MAX_TALK_LENGTH, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_handled",
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("reporte")
        verbose_name_plural = _("reportes")
        indexes = [models.Index(fields=["status", "created_at"], name="report_status_created")]

    def __str__(self) -> str:
        return f"{self.reporter} → {self.reported} ({self.get_reason_display()})"


class ModerationAction(models.Model):
    """One line of the moderation log: who did what to whom, when and why. A suspension
    lasts until ``until``; the players concerned read ``notice`` (``player_text``)."""

    class Kind(models.TextChoices):
        CLOSE_TABLE = "close_table", _("Mesa cerrada")
        REMOVE_MESSAGE = "remove_message", _("Mensaje retirado")
        WARN = "warn", _("Aviso")
        SUSPEND = "suspend", _("Suspensión")
        DEACTIVATE = "deactivate", _("Cuenta desactivada")
        DISMISS_REPORT = "dismiss_report", _("Reporte descartado")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_done"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.CharField(max_length=MAX_TALK_LENGTH)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_received",
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    message = models.ForeignKey(
        TalkMessage, on_delete=models.CASCADE, null=True, blank=True, related_name="actions"
    )
    report = models.ForeignKey(
        Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="actions"
    )
    until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("acción de moderación")
        verbose_name_plural = _("registro de moderación")
        indexes = [models.Index(fields=["user", "kind", "until"], name="action_user_kind_until")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.reason}"


class HiddenHandView(models.Model):
    """The access log of hidden tiles: ``viewer`` (staff with ``tables.view_hidden_hands``)
    saw a running hand of ``table`` in the admin at ``viewed_at``."""

    viewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="+")
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    viewed_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-viewed_at"]
        verbose_name = _("vista de fichas ocultas")
        verbose_name_plural = _("registro de fichas ocultas vistas")

    def __str__(self) -> str:
        return f"{self.viewer} · {self.table_id} · {self.viewed_at:%Y-%m-%d %H:%M}"
