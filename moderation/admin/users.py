"""Users over the admin of ``accounts``: their tables, the reports they made and received,
their moderation history; filters for suspended players and open reports."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin as AccountsUserAdmin
from accounts.models import User
from moderation import selectors
from moderation.admin.common import (
    ACT_PERMISSION,
    ChoiceFilter,
    Kind,
)
from moderation.models import ModerationAction, Report
from tables.models import Seat, Table

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
