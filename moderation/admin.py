"""The moderators' admin: the report queue, the moderation log, talk messages, the access
log of hidden hands, and, over the admins of ``tables`` and ``accounts``, a table page that
draws the game and a user page with their tables, reports and history.

Every action asks for a reason and is written to the log (``moderation.services``). Pages
that only show things have no save button. A running hand's tiles are drawn only for staff
with ``tables.view_hidden_hands`` and never at a table they sit at; each such view is
written to the access log. Held talk (written during a running partnership hand) is
hidden information too: staff without that permission do not see it until it is
delivered. Every changelist accepts only its declared lookups
(``core.admin_lookups.DeclaredLookupsOnly``).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, Value
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin as AccountsUserAdmin
from accounts.models import User
from core.admin_lookups import DeclaredLookupsOnly
from dominoes import match_from_dict, view_for
from moderation import selectors, services
from moderation.models import HiddenHandView, ModerationAction, Report, TalkMessage
from tables import selectors as table_selectors
from tables.admin import HIDDEN_PERMISSION, may_see_hidden
from tables.admin import HandAdmin as TablesHandAdmin
from tables.admin import MoveAdmin as TablesMoveAdmin
from tables.admin import SeatInline as TablesSeatInline
from tables.admin import TableAdmin as TablesTableAdmin
from tables.models import Hand, Move, Seat, Table

ACT_PERMISSION = "moderation.add_moderationaction"
CONTEXT_MESSAGES = 5  # messages shown before and after a reported one

Kind = ModerationAction.Kind


def undelivered(queryset):
    """Talk messages still held: written during a partnership hand that has not ended, at
    a table still active (``moderation.selectors``' delivery rule, as a filter)."""
    ended = Hand.objects.filter(
        table=OuterRef("table"), number=OuterRef("hand_number"), ended_at__isnull=False
    )
    return queryset.filter(held=True, table__status__in=["waiting", "playing"]).exclude(
        Exists(ended)
    )


def visible_talk(request, queryset):
    """``queryset`` of talk messages without the held ones, unless this staff member may
    see hidden hands (they may carry a partner's signal: hidden information)."""
    if request.user.has_perm(HIDDEN_PERMISSION):
        mine = Seat.objects.filter(user=request.user).values("table_id")
        return queryset.exclude(pk__in=undelivered(queryset.filter(table__in=mine)).values("pk"))
    return queryset.exclude(pk__in=undelivered(queryset).values("pk"))


class ReadOnlyAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    """Shows rows; adds, changes and deletes nothing (no save buttons)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- acting: one page, a reason each time -------------------------------------------------


class ActionForm(forms.Form):
    """What a moderator does, and why. ``days`` only for a suspension."""

    action = forms.ChoiceField(label=_("Acción"), choices=())
    reason = forms.CharField(
        label=_("Motivo"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text=_("Los jugadores afectados leen el motivo."),
    )
    days = forms.IntegerField(
        label=_("Días de suspensión"), min_value=1, max_value=365, required=False, initial=3
    )

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = choices

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("action") == Kind.SUSPEND and not cleaned.get("days"):
            self.add_error("days", gettext("Indica cuántos días."))
        return cleaned


def _choices(request, *, report, message, user, table):
    """The actions this moderator may take on these targets: ``[(kind, label)]``."""
    has = request.user.has_perm
    if not has(ACT_PERMISSION):
        return []
    found = []
    if message is not None and message.removed_at is None and has("moderation.change_talkmessage"):
        found.append((Kind.REMOVE_MESSAGE, _("Retirar el mensaje")))
    if user is not None and has("accounts.view_user"):
        found.append((Kind.WARN, _("Avisar al jugador")))
        found.append((Kind.SUSPEND, _("Suspender al jugador N días")))
        if user.is_active:
            found.append((Kind.DEACTIVATE, _("Desactivar la cuenta")))
    if table is not None and table.is_active and has("tables.change_table"):
        found.append((Kind.CLOSE_TABLE, _("Cerrar la mesa sin ganador")))
    if (
        report is not None
        and report.status == Report.Status.OPEN
        and has("moderation.change_report")
    ):
        found.append((Kind.DISMISS_REPORT, _("Descartar el reporte (sin acción)")))
    return found


def _act(request, kind, form, *, report, message, user, table):
    reason = form.cleaned_data["reason"]
    me = request.user
    if kind == Kind.REMOVE_MESSAGE:
        return services.message_remove(
            moderator=me, message_id=message.pk, reason=reason, report=report
        )
    if kind == Kind.WARN:
        return services.user_warn(moderator=me, user_id=user.pk, reason=reason, report=report)
    if kind == Kind.SUSPEND:
        return services.user_suspend(
            moderator=me,
            user_id=user.pk,
            days=form.cleaned_data["days"],
            reason=reason,
            report=report,
        )
    if kind == Kind.DEACTIVATE:
        return services.user_deactivate(moderator=me, user_id=user.pk, reason=reason, report=report)
    if kind == Kind.CLOSE_TABLE:
        return services.table_close(moderator=me, table_id=table.pk, reason=reason, report=report)
    return services.report_dismiss(moderator=me, report=report, reason=reason)


def _talk_around(request, message: TalkMessage | None, table: Table | None) -> list:
    """The talk around a reported message (or a table's last messages), as staff may see
    it (held messages need the hidden-hands permission)."""
    if table is None:
        return []
    rows = visible_talk(request, TalkMessage.objects.filter(table=table)).select_related("author")
    if message is None:
        return list(rows.order_by("-id")[: CONTEXT_MESSAGES * 2])[::-1]
    before = list(rows.filter(id__lt=message.pk).order_by("-id")[:CONTEXT_MESSAGES])[::-1]
    after = list(rows.filter(id__gt=message.pk).order_by("id")[:CONTEXT_MESSAGES])
    return [*before, message, *after]


def act_view(model_admin, request, *, report=None, message=None, user=None, table=None):
    """The page a moderator acts from: the targets with their context (the report, the
    message and the talk around it, the table, the player's history) and the action form.
    GET shows it; POST acts (one action, one reason, one log line) and comes back."""
    if report is not None:
        message = message or report.message
        user = user or report.reported
        table = table or report.table
    if message is not None:
        table = table or message.table
        user = user or message.author
    choices = _choices(request, report=report, message=message, user=user, table=table)
    form = ActionForm(request.POST or None, choices=choices)
    if request.method == "POST":
        if not choices:
            raise PermissionDenied
        if form.is_valid():
            kind = form.cleaned_data["action"]
            done = _act(request, kind, form, report=report, message=message, user=user, table=table)
            label = dict(Kind.choices)[kind]
            if done is None:
                model_admin.message_user(
                    request,
                    gettext("Nada que hacer: la mesa ya había terminado."),
                    messages.WARNING,
                )
            else:
                model_admin.message_user(
                    request,
                    gettext("Hecho: %(action)s. Queda en el registro.") % {"action": label},
                    messages.SUCCESS,
                )
            return HttpResponseRedirect(request.get_full_path())
    history = ModerationAction.objects.none()
    if user is not None:
        history = ModerationAction.objects.filter(Q(user=user) | Q(report__reported=user))
    elif table is not None:
        history = ModerationAction.objects.filter(table=table)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": gettext("Moderar"),
        "opts": model_admin.model._meta,
        "report": report,
        "message": message,
        "target_user": user,
        "table": table,
        "talk": _talk_around(request, message, table),
        "form": form,
        "can_act": bool(choices),
        "history": history.select_related("moderator", "user")[:50],
        "suspension": selectors.active_suspension(user) if user is not None else None,
        "other_reports": (
            Report.objects.filter(reported=user).exclude(pk=getattr(report, "pk", None))[:20]
            if user is not None
            else []
        ),
    }
    return TemplateResponse(request, "admin/moderation/act.html", context)


# --- the report queue ---------------------------------------------------------------------


@admin.register(Report)
class ReportAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    """The queue: open reports first, newest first; a report's page shows the message
    with the talk around it, the table, the player's history, and the actions."""

    list_display = (
        "created_at",
        "status",
        "reason",
        "reporter",
        "reported",
        "table_link",
        "excerpt",
    )
    list_filter = ("status", "reason")
    search_fields = ("reporter__username", "reported__username")
    list_select_related = ("reporter", "reported", "message")
    date_hierarchy = "created_at"

    def get_ordering(self, request):
        return ("-status", "-created_at")  # open ("open" > "handled"), newest first

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("mesa"))
    def table_link(self, report: Report):
        url = reverse("admin:tables_table_change", args=[report.table_id])
        return format_html('<a href="{}">{}</a>', url, report.table_id)

    @admin.display(description=_("mensaje"))
    def excerpt(self, report: Report) -> str:
        if report.message is None:
            return gettext("(un jugador)")
        return report.message.text[:60] or report.message.phrase

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = get_object_or_404(Report.objects.select_related("message", "table"), pk=object_id)
        if not self.has_view_permission(request, report):
            raise PermissionDenied
        return act_view(self, request, report=report)


# --- the moderation log and the access log of hidden hands --------------------------------


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    """The moderation log: who did what to whom, when and why. Lines are written by the
    actions; none is edited or deleted. ``act/`` is the page a moderator acts from."""

    list_display = ("created_at", "kind", "moderator", "user", "table", "reason", "until")
    list_filter = ("kind",)
    search_fields = ("moderator__username", "user__username", "reason")
    list_select_related = ("moderator", "user")
    date_hierarchy = "created_at"

    def get_urls(self):
        act = self.admin_site.admin_view(self.act)
        return [path("act/", act, name="moderation_act"), *super().get_urls()]

    def act(self, request):
        """``act/?user=<id>`` (or ``table=``, ``message=``): the acting page for them."""
        targets = {}
        for name, model in (("user", User), ("table", Table), ("message", TalkMessage)):
            value = request.GET.get(name, "")
            if value:
                if not value.isdigit():
                    raise PermissionDenied
                targets[name] = get_object_or_404(model, pk=int(value))
        if not targets or not request.user.has_perm("moderation.view_moderationaction"):
            raise PermissionDenied
        if (
            "message" in targets
            and not visible_talk(
                request, TalkMessage.objects.filter(pk=targets["message"].pk)
            ).exists()
        ):
            raise PermissionDenied
        return act_view(self, request, **targets)


@admin.register(HiddenHandView)
class HiddenHandViewAdmin(ReadOnlyAdmin):
    """The access log: who saw which table's running hand, when."""

    list_display = ("viewed_at", "viewer", "table", "hand_number")
    search_fields = ("viewer__username",)
    date_hierarchy = "viewed_at"


@admin.register(TalkMessage)
class TalkMessageAdmin(ReadOnlyAdmin):
    """Talk messages (held ones only for staff who may see hidden hands). Removing one is
    an action with a reason, from its page."""

    list_display = ("created_at", "table", "author", "shown_text", "removed_at")
    list_filter = ("removed_at",)
    search_fields = ("author__username",)
    list_select_related = ("author",)
    fields = (
        "table",
        "author",
        "seat_number",
        "shown_text",
        "created_at",
        "hand_number",
        "held",
        "removed_at",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return visible_talk(request, super().get_queryset(request))

    @admin.display(description=_("asiento"))
    def seat_number(self, message: TalkMessage) -> int:
        return message.seat + 1

    @admin.display(description=_("texto"))
    def shown_text(self, message: TalkMessage) -> str:
        return message.text or message.phrase

    def change_view(self, request, object_id, form_url="", extra_context=None):
        message = get_object_or_404(self.get_queryset(request), pk=object_id)
        return act_view(self, request, message=message)


# --- tables: the game drawn, reports, and closing with a reason ---------------------------


class ChoiceFilter(admin.SimpleListFilter):
    """A list filter whose options each narrow the list: ``options`` ``{value: label}``,
    ``narrow(queryset, value)``; any other value leaves the list as it is."""

    options: dict = {}

    def lookups(self, request, model_admin):
        return list(self.options.items())

    def queryset(self, request, queryset):
        value = self.value()
        return self.narrow(queryset, value) if value in self.options else queryset

    def narrow(self, queryset, value: str):
        raise NotImplementedError


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
    with names, scores and tile counts, the public log with each move's tile (a running
    hand's draws as "?"), and, for staff who may see hidden hands (never at their own
    table), every seat's tiles and the stock, written to the access log."""
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    reveal = may_see_hidden(request, table)
    drawing = {"seats": [], "line": [], "log": [], "reveal": reveal, "running": False}
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
            "team": "AB"[seat.team] if table.seats == 4 else "",
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
    for move in table_selectors.public_moves(table, own):
        drawing["log"].append({**move, "hand": move["hand"] + 1, "seat": move["seat"] + 1})
    return drawing


class SeatInline(TablesSeatInline):
    """The seats, numbered from 1 as in the game."""

    fields = ("seat_number", "user", "second_hand", "bot", "team", "score", "joined_at")
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
            extra["talk"] = _talk_around(request, None, table)
            extra["act_url"] = reverse("admin:moderation_act") + f"?table={table.pk}"
            extra["can_act"] = request.user.has_perm(ACT_PERMISSION)
        return super().change_view(request, object_id, form_url, extra)


# --- users: their tables, reports made and received, moderation history ------------------


class SuspendedFilter(ChoiceFilter):
    title = _("suspensión")
    parameter_name = "suspended"
    options = {"yes": _("Suspendidos ahora")}

    def narrow(self, queryset, value: str):
        running = ModerationAction.objects.filter(
            user=OuterRef("pk"), kind=Kind.SUSPEND, until__gt=timezone.now()
        )
        return queryset.filter(Exists(running))


class ReportedUserFilter(ChoiceFilter):
    title = _("reportes recibidos")
    parameter_name = "reports"
    options = {"open": _("Con reportes abiertos")}

    def narrow(self, queryset, value: str):
        reports = Report.objects.filter(reported=OuterRef("pk"), status=Report.Status.OPEN)
        return queryset.filter(Exists(reports))


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(AccountsUserAdmin):
    """The users admin of ``accounts``, and on each user's page their tables, the reports
    they made and received, and their moderation history, with a link to act."""

    list_filter = (*AccountsUserAdmin.list_filter, SuspendedFilter, ReportedUserFilter)
    change_form_template = "admin/moderation/user_change_form.html"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        user = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if user is not None and self.has_view_permission(request, user):
            extra["user_tables"] = Table.objects.filter(
                pk__in=Seat.objects.filter(user=user).values("table_id")
            ).order_by("-last_move_at")[:50]
            extra["reports_made"] = Report.objects.filter(reporter=user).select_related("reported")[
                :50
            ]
            extra["reports_received"] = Report.objects.filter(reported=user).select_related(
                "reporter"
            )[:50]
            extra["history"] = ModerationAction.objects.filter(user=user).select_related(
                "moderator"
            )[:50]
            extra["suspension"] = selectors.active_suspension(user)
            extra["act_url"] = reverse("admin:moderation_act") + f"?user={user.pk}"
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
