"""A notice is a row: what happened to a player, and on which channels it went out.

``Notification`` is written by ``notices.services`` (from the tasks this app's subscribers
queue for the events a write records, once it commits: ``notices.subscribers``); the
inbox lists these rows and the e-mail and push channels are fed from them, so nothing
mails or pushes directly from a table service. A row's
``payload`` holds public facts only (the table, seat names, scores, what happened): never
a tile of any seat (R31).

``NoticePreferences`` is the player's choice per kind and channel, the quiet hours and
their time zone, kept in this app (one-to-one with the user) so the accounts app is not
touched.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """One notice to one person.

    ``key`` tells a kind's events apart at a table (the table version of a turn or a
    reminder, the hand's number, ``""`` for the end of the match), so a retried task never
    writes a notice twice. ``email`` is the e-mail channel's state: ``""`` (no e-mail for
    this notice), ``pending`` (due at ``email_due_at``), ``sending`` (claimed; left so when
    the process died mid-send, and then not sent again: at most once), ``sent``,
    ``skipped`` (seen first, the turn moved on, or the player was at the table) or
    ``failed`` (the server refused the address). ``push`` is the Web Push channel's state,
    with the same values (``pending``: held by quiet hours), for browsers and the native
    apps' phones alike. ``channels`` lists where it went out (``email``; ``push``: a
    browser; ``native``: a phone).

    ``talk`` (new messages at a table) is one row per person and table (``key`` ``""``),
    refreshed by each new message; ``moderation`` (a moderator's warning, suspension or
    closing of a table) has the action's id as ``key`` and no ``table`` when it concerns
    none. Both are inbox only. ``rematch_offered`` (``key`` ``""``) offers a person their
    seat at a finished table's rematch: the notice's ``table`` is the rematch, whose page
    has the accept and decline buttons. ``seat_left`` (``key``: the table's version
    after the departure) tells those still seated at a waiting table that a guest gave up
    their seat; inbox and push, as the other seating kinds.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Tu turno")
        REMINDER = "reminder", _("Se acaba tu tiempo")
        HAND_OVER = "hand_over", _("Fin de la mano")
        MATCH_OVER = "match_over", _("Fin de la partida")
        FRIEND_JOINED = "friend_joined", _("Alguien se sentó a tu mesa")
        TABLE_STARTED = "table_started", _("Empezó la partida")
        TALK = "talk", _("Mensajes en la mesa")
        MODERATION = "moderation", _("Aviso de moderación")
        REMATCH_OFFERED = "rematch_offered", _("Te proponen la revancha")
        SEAT_LEFT = "seat_left", _("Alguien dejó su asiento")

    class Email(models.TextChoices):
        NONE = "", _("Sin correo")
        PENDING = "pending", _("Pendiente")
        SENDING = "sending", _("Enviando")
        SENT = "sent", _("Enviado")
        SKIPPED = "skipped", _("No hizo falta")
        FAILED = "failed", _("Rechazado")

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    key = models.CharField(max_length=32, blank=True)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    channels = models.JSONField(default=list)
    email = models.CharField(max_length=8, choices=Email.choices, blank=True)
    email_due_at = models.DateTimeField(null=True, blank=True)
    push = models.CharField(max_length=8, choices=Email.choices, blank=True)
    #: When the e-mail and the push were claimed (``sending``), and when a device's push
    #: service first took the push: a claim older than ``DELIVERY_LEASE_SECONDS`` is
    #: reclaimed by the beat's ``reclaim_deliveries`` (sent when taken, else retried).
    email_claimed_at = models.DateTimeField(null=True, blank=True, editable=False)
    push_claimed_at = models.DateTimeField(null=True, blank=True, editable=False)
    push_accepted_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "table", "kind", "key"], name="notification_once"
            ),
            # a warning or suspension concerns no table (``table`` null): once per action
            models.UniqueConstraint(
                fields=["recipient", "kind", "key"],
                name="notification_moderation_once",
                condition=Q(kind="moderation"),
            ),
        ]
        indexes = [
            models.Index(
                fields=["recipient", "table"],
                name="notification_unread",
                condition=Q(read_at__isnull=True),
            ),
            models.Index(fields=["recipient", "-created_at"], name="notification_inbox"),
            models.Index(
                fields=["email_due_at"],
                name="notification_email_due",
                condition=Q(email="pending"),
            ),
            # deliver_pushes reads only the pushes held by quiet hours, newest first (the
            # default ordering), and stops at its batch
            models.Index(
                fields=["-created_at", "-id"],
                name="notification_push_due",
                condition=Q(push="pending"),
            ),
            # reclaim_deliveries reads the claims left ``sending``, oldest first
            models.Index(
                fields=["email_claimed_at"],
                name="notification_email_sending",
                condition=Q(email="sending"),
            ),
            models.Index(
                fields=["push_claimed_at"],
                name="notification_push_sending",
                condition=Q(push="sending"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.recipient_id} {self.kind} {self.table_id}/{self.key}"


class NoticePreferences(models.Model):
    """What a player wants, per kind and channel (the inbox always gets every notice),
    their quiet hours (``quiet_start`` to ``quiet_end``, local time in ``time_zone``: e-mails
    and pushes wait until they end, the deadline reminder excepted), and when the last
    "your turn" e-mail went out (``TURN_EMAIL_MIN_INTERVAL_SECONDS`` apart)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences"
    )
    email_your_turn = models.BooleanField(_("correo: tu turno"), default=True)
    email_reminder = models.BooleanField(_("correo: se acaba tu tiempo"), default=True)
    email_match_over = models.BooleanField(_("correo: fin de la partida"), default=True)
    email_rematch_offered = models.BooleanField(_("correo: te proponen la revancha"), default=True)
    push_your_turn = models.BooleanField(_("en el dispositivo: tu turno"), default=True)
    push_reminder = models.BooleanField(_("en el dispositivo: se acaba tu tiempo"), default=True)
    push_match_over = models.BooleanField(_("en el dispositivo: fin de la partida"), default=True)
    push_friend_joined = models.BooleanField(
        _("en el dispositivo: alguien se sentó a tu mesa"), default=True
    )
    push_table_started = models.BooleanField(
        _("en el dispositivo: empezó la partida"), default=True
    )
    push_rematch_offered = models.BooleanField(
        _("en el dispositivo: te proponen la revancha"), default=True
    )
    push_seat_left = models.BooleanField(
        _("en el dispositivo: alguien dejó su asiento"), default=True
    )
    time_zone = models.CharField(_("zona horaria"), max_length=64, default="UTC")
    #: The player (or their browser, on their first pages: ``static/js/time_zone.js``) set
    #: ``time_zone``: until then "UTC" is only the default, and the pages offer theirs.
    time_zone_chosen = models.BooleanField(_("zona horaria elegida"), default=False, editable=False)
    quiet_start = models.TimeField(_("silencio desde"), null=True, blank=True)
    quiet_end = models.TimeField(_("silencio hasta"), null=True, blank=True)
    last_turn_email_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("preferencias de avisos")
        verbose_name_plural = _("preferencias de avisos")

    def __str__(self) -> str:
        return f"avisos de {self.user_id}"

    #: The kinds that may go by e-mail (each has a switch ``email_<kind>``).
    EMAIL_KINDS = ("your_turn", "reminder", "match_over", "rematch_offered")
    #: The kinds that may be pushed to a device (each has a switch ``push_<kind>``).
    PUSH_KINDS = (
        "your_turn",
        "reminder",
        "match_over",
        "friend_joined",
        "table_started",
        "rematch_offered",
        "seat_left",
    )
    #: What a player may set (the settings form, the API), in the order they are shown.
    EDITABLE = (
        *(f"email_{kind}" for kind in EMAIL_KINDS),
        *(f"push_{kind}" for kind in PUSH_KINDS),
        "time_zone",
        "quiet_start",
        "quiet_end",
    )

    def wants(self, channel: str, kind: str) -> bool:
        """Whether ``kind`` (a ``Notification.Kind`` value) may go out on ``channel``
        (``email`` or ``push``); a kind without a switch for that channel never does."""
        return bool(getattr(self, f"{channel}_{kind}", False))


class PushSubscription(models.Model):
    """One device's Web Push subscription (the browser's ``PushSubscription``): its push
    service ``endpoint`` (one row per device: subscribing again from the same device
    replaces it) and the keys the payload is encrypted to (RFC 8291: ``p256dh``, the
    device's P-256 public key, and ``auth``, 16 bytes; both base64url). A push service
    answering 404 or 410 for it deletes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    last_push_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id} {self.endpoint[:40]}"
