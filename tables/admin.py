"""The moderators' admin: tables, seats, hands and moves, read-only game data.

Hidden hands (a running hand's deal, stock and seed, and the engine snapshot) are shown
only to staff with the ``tables.view_hidden_hands`` permission, and never for a table
they sit at. Writes go through ``tables.services`` (the "close table" action).

Every admin here accepts only the URL lookups its list filters and date hierarchy declare
(``core.admin_lookups.DeclaredLookupsOnly``): a lookup such as ``?seed__startswith=ab``
would otherwise let result counts spell out a running hand's seed. No list
column, search field or ordering reaches a hidden field.

The changelists of tables, hands and moves never count a whole table
(``core.admin_pagination.LargeTableAdmin``): they open in well under a second at 100,000
tables and millions of moves (docs/scaling.md, "Data at size").
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.admin_lookups import DeclaredLookupsOnly, ReadOnlyAdmin
from core.admin_pagination import LargeTableAdmin
from dominoes import HandEnd
from tables import services
from tables.help import profile_label
from tables.models import Hand, Move, Seat, Table
from tables.seating import hand_seats, pair_letter

HIDDEN_PERMISSION = "tables.view_hidden_hands"


def may_see_hidden(request, table: Table | None) -> bool:
    """True when this staff member may see ``table``'s hidden tiles: the dedicated
    permission, and no seat at that table."""
    if table is None or not request.user.has_perm(HIDDEN_PERMISSION):
        return False
    return not Seat.objects.filter(table=table, user=request.user).exists()


class StaleFilter(admin.SimpleListFilter):
    """Active tables with no move for more than a day (likely to hit R27 or R28)."""

    title = _("inactividad")
    parameter_name = "stale"

    def lookups(self, request, model_admin):
        return [("1", _("Sin jugadas desde hace más de 1 día"))]

    def queryset(self, request, queryset):
        if self.value() == "1":
            since = timezone.now() - timedelta(days=1)
            return queryset.filter(status__in=services.ACTIVE, last_move_at__lt=since)
        return queryset


class HandEndFilter(admin.SimpleListFilter):
    """How a hand ended, from the engine's fixed list (R17, R18), not from the rows:
    Django's filter for a field without choices lists ``SELECT DISTINCT end`` over every
    hand, which reads the whole table (0.4 s at 900,000 hands, docs/scaling.md). The
    parameter is the field's own (``?end=blocked``), so older links still work."""

    title = _("final")
    parameter_name = "end"

    def lookups(self, request, model_admin):
        return [
            (HandEnd.DOMINO.value, _("Dominó")),
            (HandEnd.BLOCKED.value, _("Mesa cerrada (nadie podía jugar)")),
            (HandEnd.IN_PROGRESS.value, _("En juego")),
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value == HandEnd.IN_PROGRESS:  # a hand in play has no end yet: ""
            return queryset.filter(end="")
        if value in (HandEnd.DOMINO, HandEnd.BLOCKED):
            return queryset.filter(end=value)
        return queryset


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "user", "second_hand_of", "bot", "pair", "score", "joined_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def get_fields(self, request, obj=None):
        """No "segunda mano" column where nobody holds two hands (every profile but
        ``seven_plus_seven``): there it was a red ✗ on every row, read as an error."""
        fields = list(super().get_fields(request, obj))
        if obj is None or len(hand_seats(obj.rules, obj.seats, 0)) < 2:
            fields.remove("second_hand_of")
        return fields

    @admin.display(description=_("segunda mano"))
    def second_hand_of(self, seat: Seat) -> str:
        """ "sí, con el asiento 1" on the seat whose person also holds the partner seat
        (``Seat.second_hand``), "—" elsewhere."""
        if not seat.second_hand:
            return "—"
        return gettext("sí, con el asiento %(n)s") % {"n": seat.index - 2 + 1}

    @admin.display(description=_("pareja"))
    def pair(self, seat: Seat) -> str:
        """A or B, as the game and the players' pages name the pair (``Seat.team`` is 0
        or 1); "—" at a table without partnerships."""
        return pair_letter(seat.table.rules, seat.table.seats, seat.team) or "—"


class TableMovesFilter(admin.SimpleListFilter):
    """The moves of one table (``?table=<id>``), the link under a table's latest hand on
    its page (``moderation.admin.game``): the sidebar lists it only while it is in use
    (its one choice is that table)."""

    title = _("mesa")
    parameter_name = "table"

    def lookups(self, request, model_admin):
        value = self.value()
        return [(value, _("Mesa %(id)s") % {"id": value})] if value else []

    def queryset(self, request, queryset):
        value = self.value()
        if value is None:
            return queryset
        if not (value.isascii() and value.isdigit()) or len(value) > 18:  # not an id: no rows
            return queryset.none()
        return queryset.filter(table_id=int(value))


class MoveInline(admin.TabularInline):
    """The public move log; a draw's tile is blank while its hand is running, unless the
    moderator may see hidden hands."""

    model = Move
    extra = 0
    can_delete = False
    fields = (
        "hand_number",
        "sequence",
        "seat",
        "kind",
        "shown_tile",
        "end",
        "automatic",
        "created_at",
    )
    readonly_fields = fields
    ordering = ("hand__number", "sequence")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("hand")

    def has_add_permission(self, request, obj=None):
        return False

    def get_formset(self, request, obj=None, **kwargs):
        self._reveal = may_see_hidden(request, obj)
        return super().get_formset(request, obj, **kwargs)

    @admin.display(description=_("mano"))
    def hand_number(self, move: Move) -> int:
        return move.hand.number + 1

    @admin.display(description=_("ficha"))
    def shown_tile(self, move: Move) -> str:
        hidden = move.kind == "draw" and move.hand.ended_at is None
        return "?" if hidden and not getattr(self, "_reveal", False) else move.tile


def _short_date(moment) -> str:
    """``moment`` in the staff member's zone, short ("04/12/2026 23:02"): the list's date
    columns in full ("4 de diciembre de 2026 a las 23:02") did not fit at 1280 px."""
    if moment is None:
        return "—"
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


@admin.register(Table)
class TableAdmin(LargeTableAdmin, DeclaredLookupsOnly, admin.ModelAdmin):
    list_display = (
        "id",
        "status",
        "seats",
        "target",
        "creator",
        "version",
        "last_move_short",
        "deadline_short",
    )
    list_filter = ("status", "seats", "target", "outcome", StaleFilter)
    list_select_related = ("creator",)  # nullable: Django would fetch it row by row
    search_fields = ("id", "creator__username", "seat_set__user__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline, MoveInline]
    actions = ["close_without_winner"]
    readonly_fields = (
        "seats",
        "target",
        "rules_name",
        "status",
        "creator",
        "version",
        "turn_seat",
        "created_at",
        "turn_started_at",
        "deadline",
        "last_move_at",
        "finished_at",
        "outcome",
        "winners",
    )

    def get_fields(self, request, obj=None):
        fields = list(self.readonly_fields)
        return fields + ["state"] if may_see_hidden(request, obj) else fields

    def get_readonly_fields(self, request, obj=None):
        fields = list(self.readonly_fields)
        return fields + ["state"] if may_see_hidden(request, obj) else fields

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("reglas"))
    def rules_name(self, table: Table) -> str:
        """The rule set's name as the players read it, with its code for moderators:
        "Clásicas (de la casa) · código classic"."""
        return gettext("%(name)s · código %(code)s") % {
            "name": profile_label(table.rules),
            "code": table.rules,
        }

    @admin.display(description=_("última jugada"), ordering="last_move_at")
    def last_move_short(self, table: Table) -> str:
        return _short_date(table.last_move_at)

    @admin.display(description=_("plazo"), ordering="deadline")
    def deadline_short(self, table: Table) -> str:
        return _short_date(table.deadline)

    @admin.action(description=_("Cerrar la mesa sin ganador"), permissions=["change"])
    def close_without_winner(self, request, queryset):
        closed = sum(
            services.table_close_by_moderator(table_id=pk)
            for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, _("Mesas cerradas: %(n)d") % {"n": closed}, messages.SUCCESS)


@admin.register(Hand)
class HandAdmin(LargeTableAdmin, DeclaredLookupsOnly, admin.ModelAdmin):
    """Finished hands show their deal and seed to every moderator (R19, R6); a running
    hand's deal, stock and seed need the hidden-hands permission."""

    list_display = ("table", "number", "leader", "end", "points", "started_at", "ended_at")
    list_filter = (HandEndFilter,)
    search_fields = ("table__id",)
    public_fields = (
        "table",
        "number",
        "leader",
        "seed_sha256",
        "started_at",
        "ended_at",
        "end",
        "winners",
        "points",
        "counts",
    )
    secret_fields = ("seed", "dealt", "stock")

    def _reveal(self, request, hand: Hand | None) -> bool:
        return hand is not None and (
            hand.ended_at is not None or may_see_hidden(request, hand.table)
        )

    def get_fields(self, request, obj=None):
        return self.public_fields + (self.secret_fields if self._reveal(request, obj) else ())

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Move)
class MoveAdmin(LargeTableAdmin, ReadOnlyAdmin):
    list_display = ("table", "hand", "sequence", "seat", "kind", "end", "automatic", "created_at")
    list_filter = ("kind", "automatic", TableMovesFilter)
    search_fields = ("table__id",)
    fields = ("table", "hand", "sequence", "seat", "kind", "end", "automatic", "created_at")
    readonly_fields = fields
