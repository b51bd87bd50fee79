"""Users over the admin of ``accounts``: their tables, the reports they made and received,
their moderation history; filters for suspended players and open reports."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Exists, OuterRef
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin as AccountsUserAdmin
from accounts.models import User
from moderation import selectors, services
from moderation.admin.common import (
    ACT_PERMISSION,
    ChoiceFilter,
    Kind,
)
from moderation.models import ModerationAction, Report
from tables.errors import TableError
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


class ReasonForm(forms.Form):
    """The reason of a bulk deactivation, which every player concerned may be told."""

    reason = forms.CharField(
        label=_("Motivo"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
    )


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(AccountsUserAdmin):
    """The users admin of ``accounts``, and on each user's page their tables, the reports
    they made and received, and their moderation history, with a link to act; the list's
    bulk deactivation is a moderation action (a reason, the log, ``services``)."""

    list_filter = (*AccountsUserAdmin.list_filter, SuspendedFilter, ReportedUserFilter)
    change_form_template = "admin/moderation/user_change_form.html"
    actions = ["deactivate_users"]

    def has_act_permission(self, request) -> bool:
        """Whether this staff member may take moderation actions (the log's add right)."""
        return request.user.has_perm(ACT_PERMISSION)

    @admin.action(description=_("Desactivar los usuarios seleccionados"), permissions=["act"])
    def deactivate_users(self, request, queryset):
        """Deactivate the selected users, each through ``services.user_deactivate`` (a
        reason, a line of the log each; deactivating, not deleting: their moves stay in
        the tables' history). The first POST asks for the reason; the second, with
        ``apply``, acts. An account the moderator may not act on (a superuser's, a staff
        member's, their own) is left active, named in a message, and its try logged."""
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": gettext("Desactivar los usuarios seleccionados"),
                "opts": self.model._meta,
                "form": form,
                "users": queryset.order_by("username"),
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/moderation/deactivate_users.html", context)
        done = 0
        for user in queryset.filter(is_active=True).order_by("username"):
            try:
                services.user_deactivate(
                    moderator=request.user, user_id=user.pk, reason=form.cleaned_data["reason"]
                )
            except TableError as refusal:
                if refusal.code != "protected_account":
                    raise
                self.message_user(request, f"{user.username}: {refusal.detail}", messages.ERROR)
                continue
            done += 1
        self.message_user(
            request,
            ngettext("%(count)d usuario desactivado.", "%(count)d usuarios desactivados.", done)
            % {"count": done},
            messages.SUCCESS,
        )
        return None

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
