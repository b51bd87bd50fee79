"""Tables, moves and hands over the admins of ``tables``: the game drawn on a table's
page, seats and hands numbered from 1, a running hand's tiles only for staff who may see
them (each view logged), a filter for tables with reports, closing with a reason."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Exists, OuterRef, Value
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from dominoes import match_from_dict, view_for
from moderation import services
from moderation.admin.acting import held_from_staff, talk_around
from moderation.admin.common import (
    ACT_PERMISSION,
    ChoiceFilter,
)
from moderation.models import ModerationAction, Report
from tables import selectors as table_selectors
from tables.admin import HIDDEN_PERMISSION, may_see_hidden
from tables.admin import HandAdmin as TablesHandAdmin
from tables.admin import MoveAdmin as TablesMoveAdmin
from tables.admin import SeatInline as TablesSeatInline
from tables.admin import TableAdmin as TablesTableAdmin
from tables.models import Hand, Move, Seat, Table
from tables.seating import pair_letter

# --- tables: the game drawn, reports, and closing with a reason ---------------------------


class ReportedFilter(ChoiceFilter):
    """Tables with reports (open ones, or any)."""

    title = _("reportes")
    parameter_name = "reported"
    options = {"open": _("Con reportes abiertos"), "any": _("Con algún reporte")}

    def narrow(self, queryset, value: str):
        reports = Report.objects.filter(table=OuterRef("pk"))
        if value == "open":
            reports = reports.filter(status=Report.Status.OPEN)
        return queryset.filter(Exists(reports))


def game_drawing(request, table: Table) -> dict:
    """What the table page shows, for the admin: the line, the seats (numbered from 1)
    with names, scores and tile counts, the public log of the latest hand with each move's
    tile (a running hand's draws as "?"; every hand's moves are one link away, in the
    moves list: ``all_moves_url``, ``all_moves`` of them), and, for staff who may see
    hidden hands (never at their own table), every seat's tiles and the stock, written to
    the access log."""
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    reveal = may_see_hidden(request, table)
    drawing = {"seats": [], "line": [], "log": [], "reveal": reveal, "running": False}
    drawing["pairs"] = bool(pair_letter(table.rules, table.seats, 0))
    match = match_from_dict(table.state) if table.state is not None else None
    view = view_for(match, 0).to_dict() if match is not None else None
    hand = match.hand if match is not None else None
    running = hand is not None and not hand.is_over and table.is_active
    drawing["running"] = running
    if view is not None:
        drawing["line"] = [{"name": f"{a}-{b}", "vertical": a == b} for a, b in view["line"]]
        drawing["ends"] = view["ends"]
        drawing["stock_size"] = view["stock_size"]
        drawing["hand_number"] = hand.number + 1
    for seat in seats:
        row = {
            "number": seat.index + 1,
            "name": seat.display_name or gettext("asiento libre"),
            "team": pair_letter(table.rules, table.seats, seat.team),
            "score": seat.score,
            "tiles": view["tile_counts"][seat.index] if view else None,
            "turn": table.turn_seat == seat.index,
            "hand": None,
        }
        if reveal and running:
            row["hand"] = [str(tile) for tile in hand.holdings[seat.index]]
        drawing["seats"].append(row)
    if reveal and running:
        drawing["stock"] = [str(tile) for tile in hand.stock[hand.drawn :]]
        services.hidden_hand_viewed(viewer=request.user, table=table)
    own = set() if not reveal else {seat.index for seat in seats}
    moves = Move.objects.filter(table=table).select_related("hand")
    latest = table.hands.order_by("-number").values_list("pk", flat=True).first()
    rows = list(moves.filter(hand_id=latest).order_by("sequence")) if latest else []
    for move in table_selectors.public_moves(table, own, rows=rows):
        drawing["log"].append({**move, "hand": move["hand"] + 1, "seat": move["seat"] + 1})
    drawing["all_moves"] = moves.count()
    drawing["all_moves_url"] = reverse("admin:tables_move_changelist") + f"?table={table.pk}"
    return drawing


class SeatInline(TablesSeatInline):
    """The seats, numbered from 1 as in the game."""

    fields = ("seat_number", "user", "second_hand_of", "bot", "pair", "score", "joined_at")
    readonly_fields = fields

    @admin.display(description=_("asiento"))
    def seat_number(self, seat: Seat) -> int:
        return seat.index + 1


def _seat_numbers(seats) -> str:
    return ", ".join(str(seat + 1) for seat in seats or ()) or "—"


admin.site.unregister(Table)


@admin.register(Table)
class TableAdmin(TablesTableAdmin):
    """The tables admin of ``tables``, with the game drawn on each table's page (instead
    of the engine's JSON), its reports and moderation, a filter for tables with reports,
    and closing a table from the acting page, with a reason."""

    list_filter = (*TablesTableAdmin.list_filter, ReportedFilter)
    actions = ["moderate"]
    change_form_template = "admin/moderation/table_change_form.html"
    inlines = [SeatInline]
    #: Seats as the game numbers them, from 1 (the model stores them from 0).
    renamed = {"turn_seat": "turn_seat_number", "winners": "winner_seats"}

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        return [self.renamed.get(name, name) for name in fields if name != "state"]

    @admin.display(description=_("asiento en turno"))
    def turn_seat_number(self, table: Table) -> str:
        return _seat_numbers([table.turn_seat] if table.turn_seat is not None else [])

    @admin.display(description=_("ganadores (asientos)"))
    def winner_seats(self, table: Table) -> str:
        return _seat_numbers(table.winners)

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def has_change_permission(self, request, obj=None):
        # The page only shows; the list's action (moderate) needs the change permission.
        return obj is None and super().has_change_permission(request)

    @admin.action(
        description=_("Moderar la mesa (cerrar sin ganador, con un motivo)"), permissions=["change"]
    )
    def moderate(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, gettext("Elige una sola mesa."), messages.WARNING)
            return None
        url = reverse("admin:moderation_act") + f"?table={queryset.get().pk}"
        return HttpResponseRedirect(url)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        table = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if table is not None and self.has_view_permission(request, table):
            extra["drawing"] = game_drawing(request, table)
            extra["reports"] = Report.objects.filter(table=table).select_related(
                "reporter", "reported"
            )
            extra["log_lines"] = ModerationAction.objects.filter(table=table).select_related(
                "moderator"
            )
            extra["talk"] = talk_around(request, None, table)
            extra["talk_held"] = held_from_staff(request, table)
            extra["act_url"] = reverse("admin:moderation_act") + f"?table={table.pk}"
            extra["can_act"] = request.user.has_perm(ACT_PERMISSION)
        return super().change_view(request, object_id, form_url, extra)


admin.site.unregister(Move)


@admin.register(Move)
class MoveAdmin(TablesMoveAdmin):
    """Moves with their tile and seat numbered from 1; a running hand's draws show "?"
    unless this staff member may see that table's hidden hands (R31)."""

    list_display = (
        "table",
        "hand_number",
        "sequence_number",
        "seat_number",
        "kind",
        "shown_tile",
        "end",
        "automatic",
        "created_at",
    )
    list_select_related = ("hand", "table")
    fields = readonly_fields = list_display  # a move's page shows what its row shows

    def get_queryset(self, request):
        """Each row knows whether its draw may be shown to this staff member: the
        hidden-hands permission, and no seat at that table (``reveal``)."""
        rows = super().get_queryset(request).select_related("hand", "table")
        if not request.user.has_perm(HIDDEN_PERMISSION):
            return rows.annotate(reveal=Value(False))
        seated = Seat.objects.filter(table=OuterRef("table"), user=request.user)
        return rows.annotate(reveal=~Exists(seated))

    @admin.display(description=_("mano"))
    def hand_number(self, move: Move) -> int:
        return move.hand.number + 1

    @admin.display(description=_("orden"))
    def sequence_number(self, move: Move) -> int:
        return move.sequence + 1

    @admin.display(description=_("asiento"))
    def seat_number(self, move: Move) -> int:
        return move.seat + 1

    @admin.display(description=_("ficha"))
    def shown_tile(self, move: Move) -> str:
        if move.kind == "pass":
            return "—"
        hidden = move.kind == "draw" and move.hand.ended_at is None
        if hidden and not getattr(move, "reveal", False):
            return "?"
        return move.tile


admin.site.unregister(Hand)


@admin.register(Hand)
class HandAdmin(TablesHandAdmin):
    """A hand's page only shows (no save button), its number from 1 as in the game."""

    list_display = ("table", "hand_number", "leader", "end", "points", "started_at", "ended_at")

    @admin.display(description=_("mano"))
    def hand_number(self, hand: Hand) -> int:
        return hand.number + 1

    def has_change_permission(self, request, obj=None):
        return False
