"""Tables, seats, hands and the move log.

The Move rows are the truth: an append-only log per hand, next to the hand's deal and
seed. ``Table.state`` is a snapshot of the engine state (``dominoes.match_to_dict``) so a
read never replays the log: the current hand, the one before it and the scores, so its
size does not grow with the match (older snapshots held every hand; migration 0008
trims them). ``tables.services`` writes both in one transaction. Nothing here may be
served to a player directly: what a seat sees goes through ``dominoes.view_for`` (R31),
see ``tables.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# Django finds a model where its app's models module imports it.
from tables.models_delivery import EmailDelivery, MoveRequest  # noqa: F401
from tables.models_outbox import TableEvent  # noqa: F401
from tables.models_replay import MatchAnalysis, PublicReplay  # noqa: F401
from tables.move_time import default_move_seconds, reminder_seconds

BOT_CHOICES = [
    ("garabato", "Garabato"),
    ("nino", "Nino"),
    ("quelonia", "Abuela Quelonia"),
]


class Table(models.Model):
    """A table of 2, 3 or 4 seats playing one match to a target (R25, R29).

    ``version`` grows by one on every change: it is the API's ETag and the optimistic
    concurrency token every write checks. ``move_seconds`` is the table's move time
    (R27; ``tables.move_time``: 1, 2, 3 or 7 days, chosen by the creator of a friends'
    table, else ``ABSENCE_SECONDS``); ``deadline`` is when the human seat to act loses by
    absence, ``move_seconds`` after their turn began, null while no human is to act;
    ``last_move_at`` starts at creation and drives the idle close (R28);
    ``bot_requeued_at`` is when a stuck bot turn was last sent again.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("Esperando jugadores")
        PLAYING = "playing", _("En juego")
        FINISHED = "finished", _("Terminada")
        CLOSED = "closed", _("Cerrada")

    class Outcome(models.TextChoices):
        TARGET = "target", _("Meta alcanzada")
        ABANDONED = "abandoned", _("Abandono")
        ABSENT = "absent", _("Ausencia")
        IDLE = "idle", _("Mesa inactiva")
        MODERATOR = "moderator", _("Cerrada por un moderador")
        DECLINED = "declined", _("Revancha rechazada")

    seats = models.PositiveSmallIntegerField(
        choices=[(2, "2"), (3, "3"), (4, "4")], verbose_name=_("asientos")
    )
    target = models.PositiveSmallIntegerField(
        choices=[(50, "50"), (100, "100")], verbose_name=_("meta")
    )
    rules = models.CharField(max_length=32, default="classic", verbose_name=_("reglas"))
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.WAITING, verbose_name=_("estado")
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,  # a deleted account (accounts.services.account_delete)
        on_delete=models.PROTECT,
        related_name="created_tables",
        verbose_name=_("creador"),
    )
    state = models.JSONField(
        null=True, blank=True, editable=False, verbose_name=_("estado del motor")
    )
    version = models.PositiveIntegerField(default=0, verbose_name=_("versión"))
    move_seconds = models.PositiveIntegerField(
        default=default_move_seconds, verbose_name=_("tiempo por jugada (segundos)")
    )
    turn_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("asiento en turno (desde 0)")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("creada"))
    turn_started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("turno desde"))
    deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("plazo"))
    #: When the turn's "your time is running out" reminder is due (R27): ``deadline``
    #: less ``reminder_seconds(move_seconds)``, set with the deadline at the turn's start
    #: (``services.transitions.set_turn``), so the reminder sweep reads one plain range of its
    #: own index, ``table_reminder_due``.
    remind_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_move_at = models.DateTimeField(verbose_name=_("última jugada"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("terminada"))
    outcome = models.CharField(
        max_length=16, choices=Outcome.choices, blank=True, verbose_name=_("final")
    )
    winners = models.JSONField(
        null=True, blank=True, verbose_name=_("ganadores (asientos desde 0)")
    )
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        editable=False,
        verbose_name=_("revancha de"),
        help_text="The finished table this one is the rematch of (one rematch per table).",
    )
    reminded_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    #: When a stuck bot turn was last sent again (``services.resume_stuck_bot``): at most
    #: once per ``BOT_STUCK_SECONDS``, however many readers.
    bot_requeued_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("mesa")
        verbose_name_plural = _("mesas")
        permissions = [
            ("view_hidden_hands", "Can see the hidden tiles of tables they do not sit at"),
        ]
        indexes = [
            models.Index(
                fields=["deadline"], name="table_due_deadline", condition=Q(status="playing")
            ),
            models.Index(fields=["status", "last_move_at"], name="table_status_last_move"),
            # The sweeps (tables.tasks) read only what is due through these, oldest first:
            # their cost follows the due rows, not the table count (docs/scaling.md).
            models.Index(
                fields=["last_move_at"],
                name="table_idle_last_move",
                condition=Q(status__in=["waiting", "playing"]),
            ),
            models.Index(
                fields=["turn_started_at"],
                name="table_bot_turn_started",
                condition=Q(status="playing", deadline__isnull=True, turn_seat__isnull=False),
            ),
            # the admin's date hierarchy (its first and last day) without a full scan
            models.Index(fields=["created_at"], name="table_created_at"),
            models.Index(
                fields=["remind_at"],
                name="table_reminder_due",
                condition=Q(status="playing") & ~Q(reminded_version=F("version")),
            ),
        ]

    def __str__(self) -> str:
        return f"Mesa {self.pk} ({self.seats}, a {self.target})"

    @property
    def is_active(self) -> bool:
        """True while the table can still change by play (waiting or playing)."""
        return self.status in (self.Status.WAITING, self.Status.PLAYING)

    @property
    def reminder_seconds(self) -> int:
        """How long before ``deadline`` its reminder goes, in seconds (``move_time``)."""
        return reminder_seconds(self.move_seconds)


class Seat(models.Model):
    """One seat at a table: a person (``user``), a bot (``bot``), or an open seat with an
    ``invite_token`` that a friend uses to take it (R30). Partners sit opposite (R2):
    ``team`` is ``index % 2`` with 4 seats, else the seat's own index.

    A person holds one seat per table, except in ``seven_plus_seven`` (docs/profiles.md),
    where one person plays both hands of a pair: seats ``i`` and ``i + 2``. The second of
    those rows has ``second_hand`` set; the constraints allow a user one plain seat and
    at most one second hand per table, and a second hand only at seat 2 or 3, held by a
    person. That only two-hand profiles set ``second_hand`` (and that the partner seat is
    the same person's) is checked by ``tables.services``, the only writer.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seat_set", verbose_name=_("mesa")
    )
    index = models.PositiveSmallIntegerField(verbose_name=_("asiento (desde 0)"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("usuario"),
    )
    bot = models.CharField(max_length=16, choices=BOT_CHOICES, blank=True, verbose_name=_("bot"))
    team = models.PositiveSmallIntegerField(verbose_name=_("pareja"))
    score = models.PositiveIntegerField(default=0, verbose_name=_("puntos"))
    joined_at = models.DateTimeField(null=True, blank=True, verbose_name=_("sentado"))
    invite_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    joined_invite_sha256 = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_index=True,
        editable=False,
        help_text="SHA-256 of the invite token this seat was taken with: its holder "
        "re-opening the link lands on the table.",
    )
    seen_version = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="The table version its player last read (since your last visit).",
    )
    second_hand = models.BooleanField(
        default=False,
        editable=False,
        help_text="The user also holds the partner seat (index - 2): seven_plus_seven.",
        verbose_name=_("segunda mano"),
    )
    player_deleted = models.BooleanField(
        default=False,
        editable=False,
        help_text="Held by a player who deleted their account: shown as «jugador eliminado».",
    )
    # "My tables" (``tables.listing``), kept by ``tables.services.transitions.list_rows``: the
    # table's place in its player's list, so that a page is a range of ``seat_my_tables``.
    list_group = models.PositiveSmallIntegerField(
        default=2,
        editable=False,
        help_text="The table's group in this player's list: 0 their turn, 1 playing, "
        "2 waiting for players, 3 over (tables.seating.list_group).",
    )
    list_moved_at = models.DateTimeField(
        editable=False,
        help_text="The table's last_move_at, or its finished_at once over, copied for "
        "this player's list (tables.services.transitions.list_time).",
    )

    class Meta:
        verbose_name = _("asiento")
        verbose_name_plural = _("asientos")
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="seat_unique_user",
                condition=Q(user__isnull=False, second_hand=False),
            ),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="seat_unique_second_hand",
                condition=Q(second_hand=True),
            ),
            models.CheckConstraint(
                condition=Q(second_hand=False)
                | Q(index__gte=2, user__isnull=False, bot="", invite_token__isnull=True),
                name="seat_second_hand_is_a_person_at_2_or_3",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "table"], name="seat_user_table"),
            # "My tables": one row per table and person (their first seat), in list order
            models.Index(
                fields=["user", "list_group", "-list_moved_at", "-table"],
                name="seat_my_tables",
                condition=Q(user__isnull=False, second_hand=False),
            ),
        ]

    def __str__(self) -> str:
        """``"Asiento 1: alice"``, seats from 1 as played ("libre" while open): the title
        of the seat's row on the table's admin page."""
        return gettext("Asiento %(n)s: %(name)s") % {
            "n": self.index + 1,
            "name": self.display_name or gettext("libre"),
        }

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def is_open(self) -> bool:
        """True while nobody (person or bot) holds the seat."""
        return not self.bot and self.user_id is None and not self.player_deleted

    @property
    def display_name(self) -> str:
        """The player's name as shown at the table: the bot's name, the username, or
        «jugador eliminado» for an account deleted since. At a table two seats of the same
        bot are told apart by ``tables.seating.player_name`` ("Nino II"), which the pages,
        the API and the e-mails show."""
        if self.bot:
            return dict(BOT_CHOICES)[self.bot]
        if self.user_id is not None:
            return self.user.username
        if self.player_deleted:
            return str(_("jugador eliminado"))
        return ""


class Hand(models.Model):
    """One deal of a match: the deal, its seed (hidden until the hand ends, R6) and result.
    A finished hand lives here and in its Move rows only: the table's snapshot keeps the
    last two hands (``tables.services.transitions.SNAPSHOT_HANDS``).

    ``seed_sha256`` is published when the hand starts; ``seed`` is stored from the start
    but only served once ``ended_at`` is set.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("mesa")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("número (desde 0)"))
    seed = models.CharField(max_length=64, verbose_name=_("semilla"))
    seed_sha256 = models.CharField(max_length=64, verbose_name=_("SHA-256 de la semilla"))
    dealt = models.JSONField(verbose_name=_("reparto"))
    stock = models.JSONField(verbose_name=_("pozo"))
    leader = models.PositiveSmallIntegerField(verbose_name=_("sale (asiento desde 0)"))
    started_at = models.DateTimeField(verbose_name=_("empezada"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("terminada"))
    end = models.CharField(max_length=16, blank=True, verbose_name=_("final"))
    winners = models.JSONField(null=True, blank=True, verbose_name=_("ganadores"))
    points = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("puntos"))
    counts = models.JSONField(null=True, blank=True, verbose_name=_("cuentas"))
    departures = models.JSONField(
        default=list,
        blank=True,
        editable=False,
        verbose_name=_("salidas"),
        help_text="[[seat, after]]: the seats that left the hand after that many of its "
        "actions (leavers_sit_out profiles), written as each seat leaves.",
    )

    class Meta:
        verbose_name = _("mano")
        verbose_name_plural = _("manos")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.table_id} mano {self.number + 1}"


class Move(models.Model):
    """One action of a hand's log, automatic draws and passes included (R16).

    ``tile`` is the tile played or drawn (a drawn tile is secret to other seats until the
    hand ends, R31); ``end`` the pip of the end a play was placed on (null for the lead).
    ``version`` is the table's version after the write that made it: the moves a seat has
    not seen are those above its ``Seat.seen_version``.
    """

    class Kind(models.TextChoices):
        PLAY = "play", _("Juega")
        DRAW = "draw", _("Roba")
        PASS = "pass", _("Pasa")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="moves", verbose_name=_("mesa")
    )
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="moves", verbose_name=_("mano")
    )
    sequence = models.PositiveSmallIntegerField(verbose_name=_("orden (desde 0)"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("asiento (desde 0)"))
    kind = models.CharField(max_length=8, choices=Kind.choices, verbose_name=_("jugada"))
    tile = models.CharField(max_length=8, blank=True, verbose_name=_("ficha"))
    end = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("punta"))
    automatic = models.BooleanField(default=False, verbose_name=_("automática"))
    created_at = models.DateTimeField(verbose_name=_("cuándo"))
    version = models.PositiveIntegerField(
        default=0,
        verbose_name=_("versión"),
        help_text="The table version the write that made this move produced.",
    )

    class Meta:
        verbose_name = _("jugada")
        verbose_name_plural = _("jugadas")
        ordering = ["hand", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "sequence"], name="move_unique_sequence")
        ]

    def __str__(self) -> str:
        """``"7 mano 1 #3 play 6-4"``; a draw's tile only once its hand has ended (R31):
        the admin shows this name in breadcrumbs, history and the table's move rows."""
        secret = self.kind == self.Kind.DRAW and self.hand.ended_at is None
        return f"{self.hand} #{self.sequence} {self.kind} {'?' if secret else self.tile}"
