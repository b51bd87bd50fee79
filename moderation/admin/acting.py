"""The page a moderator acts from: the targets with their context and a form that asks
for the action and its reason; each action is one call to ``moderation.services`` and
one line of the moderation log."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from dominoes import PROFILES
from moderation import selectors, services
from moderation.admin.common import (
    ACT_PERMISSION,
    CONTEXT_MESSAGES,
    Kind,
    message_words,
    visible_talk,
)
from moderation.models import ModerationAction, Report, TalkMessage
from tables.errors import TableError
from tables.models import Table

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


def talk_around(request, message: TalkMessage | None, table: Table | None) -> list:
    """The talk around a reported message (or a table's last messages), as staff may see
    it (held messages need the hidden-hands permission); each message's ``words`` are
    what it says (``message_words``: a quick phrase in the moderator's language)."""
    if table is None:
        return []
    rows = visible_talk(request, TalkMessage.objects.filter(table=table)).select_related("author")
    if message is None:
        shown = list(rows.order_by("-id")[: CONTEXT_MESSAGES * 2])[::-1]
    else:
        before = list(rows.filter(id__lt=message.pk).order_by("-id")[:CONTEXT_MESSAGES])[::-1]
        after = list(rows.filter(id__gt=message.pk).order_by("id")[:CONTEXT_MESSAGES])
        shown = [*before, message, *after]
    for line in shown:
        line.words = message_words(line)
    return shown


def held_from_staff(request, table: Table | None) -> int:
    """How many of ``table``'s messages are held until their hand's end and hidden from
    this staff member (``visible_talk``): the talk says how many, never what or who."""
    if table is None:
        return 0
    rows = TalkMessage.objects.filter(table=table)
    return rows.count() - visible_talk(request, rows).count()


def act_view(model_admin, request, *, report=None, message=None, user=None, table=None):
    """The page a moderator acts from: the targets with their context (the report, the
    message and the talk around it, the table, the player's history) and the action form.
    GET shows it; POST acts (one action, one reason, one log line) and comes back. An
    action on a player this moderator may not act on (a superuser, a staff member, their
    own account: ``services.protection``) is refused by the service, which logs the try;
    the page says why, above the form and in the message after the refusal."""
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
            try:
                done = _act(
                    request, kind, form, report=report, message=message, user=user, table=table
                )
            except TableError as refusal:
                if refusal.code != "protected_account":
                    raise
                model_admin.message_user(request, str(refusal.detail), messages.ERROR)
                return HttpResponseRedirect(request.get_full_path())
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
        "single_hand": table is not None and PROFILES[table.rules].single_hand,
        "talk": talk_around(request, message, table),
        "talk_held": held_from_staff(request, table),
        "form": form,
        "can_act": bool(choices),
        # Why the actions on this player would be refused (services.protection), if so.
        "protected": services.protection(request.user, user) if user is not None else None,
        "history": history.select_related("moderator", "user")[:50],
        "suspension": selectors.active_suspension(user) if user is not None else None,
        "other_reports": (
            Report.objects.filter(reported=user).exclude(pk=getattr(report, "pk", None))[:20]
            if user is not None
            else []
        ),
    }
    return TemplateResponse(request, "admin/moderation/act.html", context)
