"""The report queue, the moderation log (and its acting page), the access log of hidden
hands, and the talk messages."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.admin_lookups import DeclaredLookupsOnly, ReadOnlyAdmin
from moderation.admin.acting import act_view
from moderation.admin.common import message_words, visible_talk
from moderation.models import HiddenHandView, ModerationAction, Report, TalkMessage
from tables.models import Table

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
        return message_words(report.message)[:60]

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
        return message_words(message)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        message = get_object_or_404(self.get_queryset(request), pk=object_id)
        return act_view(self, request, message=message)
