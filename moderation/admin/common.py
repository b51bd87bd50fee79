"""What the moderation admins share: the permission to act, held talk as a filter (hidden
information while its partnership hand runs), read-only admins and option filters."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Exists, OuterRef

from moderation.models import ModerationAction, TalkMessage
from moderation.ui_strings import PHRASES
from tables.admin import HIDDEN_PERMISSION
from tables.models import Hand, Seat

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


def message_words(message: TalkMessage) -> str:
    """What a talk message says, as its readers read it: its text, or its quick phrase's
    words in the active language ("Suerte", "Good luck"), never the phrase's key."""
    if message.text:
        return message.text
    return str(PHRASES.get(message.phrase, message.phrase))


def visible_talk(request, queryset):
    """``queryset`` of talk messages without the held ones, unless this staff member may
    see hidden hands (they may carry a partner's signal: hidden information)."""
    if request.user.has_perm(HIDDEN_PERMISSION):
        mine = Seat.objects.filter(user=request.user).values("table_id")
        return queryset.exclude(pk__in=undelivered(queryset.filter(table__in=mine)).values("pk"))
    return queryset.exclude(pk__in=undelivered(queryset).values("pk"))


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
