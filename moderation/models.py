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
    that hand then (null: before the hand's first move); ``after_match`` says the match
    was already over (that hand and move are then the last ones). ``removed_at`` is set
    when a moderator removes it (the row stays, for the log and the reports)."""

    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.CASCADE,
        related_name="talk_messages",
        verbose_name=_("mesa"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="talk_messages",
        verbose_name=_("autor"),
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("asiento"))
    text = models.CharField(max_length=MAX_TALK_LENGTH, blank=True, verbose_name=_("texto"))
    phrase = models.CharField(max_length=32, blank=True, verbose_name=_("frase rápida"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("escrito"))
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("mano"))
    after_sequence = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("tras la jugada")
    )
    after_match = models.BooleanField(
        default=False,
        help_text=_("Escrito con la partida ya terminada."),
        verbose_name=_("tras la partida"),
    )
    held = models.BooleanField(
        default=False,
        help_text=_("Escrito durante una mano de parejas: se entrega al acabar la mano."),
        verbose_name=_("retenido"),
    )
    removed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("retirado"))

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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("quien silencia"),
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("mesa")
    )
    muted_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("persona silenciada"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("desde"))

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
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_made",
        verbose_name=_("reporta"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_received",
        verbose_name=_("reportado"),
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="reports", verbose_name=_("mesa")
    )
    message = models.ForeignKey(
        TalkMessage,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("mensaje"),
    )
    reason = models.CharField(max_length=16, choices=Reason.choices, verbose_name=_("motivo"))
    text = models.CharField(max_length=MAX_TALK_LENGTH, blank=True, verbose_name=_("lo cuenta"))
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, verbose_name=_("estado")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("fecha"))
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_handled",
        verbose_name=_("atendido por"),
    )
    handled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("atendido"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("reporte")
        verbose_name_plural = _("reportes")
        indexes = [models.Index(fields=["status", "created_at"], name="report_status_created")]

    def __str__(self) -> str:
        return f"{self.reporter} → {self.reported} ({self.get_reason_display()})"


class ModerationAction(models.Model):
    """One line of the moderation log: who did what to whom, when and why. A suspension
    lasts until ``until``; the players concerned read ``notice`` (``player_text``). A
    ``refused`` line is an action the rules did not let its moderator take (on a
    superuser, a staff member or themselves: ``moderation.services.protection``); its
    ``reason`` is the action's kind, a colon and the reason given (``"deactivate: spam"``),
    and nobody but staff reads it."""

    class Kind(models.TextChoices):
        CLOSE_TABLE = "close_table", _("Mesa cerrada")
        REMOVE_MESSAGE = "remove_message", _("Mensaje retirado")
        WARN = "warn", _("Aviso")
        SUSPEND = "suspend", _("Suspensión")
        DEACTIVATE = "deactivate", _("Cuenta desactivada")
        DISMISS_REPORT = "dismiss_report", _("Reporte descartado")
        REFUSED = "refused", _("Acción rechazada")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_done",
        verbose_name=_("moderador"),
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, verbose_name=_("acción"))
    reason = models.CharField(max_length=MAX_TALK_LENGTH, verbose_name=_("motivo"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_received",
        verbose_name=_("jugador"),
    )
    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("mesa"),
    )
    message = models.ForeignKey(
        TalkMessage,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="actions",
        verbose_name=_("mensaje"),
    )
    report = models.ForeignKey(
        Report,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="actions",
        verbose_name=_("reporte"),
    )
    until = models.DateTimeField(null=True, blank=True, verbose_name=_("hasta"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("fecha"))

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

    viewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("quién"),
    )
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, related_name="+", verbose_name=_("mesa")
    )
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("mano"))
    viewed_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("cuándo"))

    class Meta:
        ordering = ["-viewed_at"]
        verbose_name = _("vista de fichas ocultas")
        verbose_name_plural = _("registro de fichas ocultas vistas")

    def __str__(self) -> str:
        return f"{self.viewer} · {self.table_id} · {self.viewed_at:%Y-%m-%d %H:%M}"
