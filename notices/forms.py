"""The notice preferences form (the settings page's "Avisos" section)."""

from __future__ import annotations

from functools import cache

from django import forms
from django.utils.translation import gettext_lazy as _

from notices.models import NoticePreferences
from notices.time_zones import offered, offered_name


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """The zones a player picks from, sorted (``America/Havana``, ``Europe/Madrid``, …,
    ``UTC``): places and UTC, no legacy alias (``notices.time_zones``)."""
    return [(name, name.replace("_", " ")) for name in sorted(offered())]


class TimeZoneField(forms.ChoiceField):
    """A zone of the list; an alias reads as its place ("Asia/Calcutta" is
    "Asia/Kolkata")."""

    def to_python(self, value) -> str:
        value = super().to_python(value)
        return offered_name(value) or value


class NoticePreferencesForm(forms.ModelForm):
    """Per kind and channel (the inbox always gets every notice), the time zone and the
    quiet hours (both or neither; local time)."""

    time_zone = TimeZoneField(label=_("Zona horaria"), choices=time_zone_choices)
    quiet_start = forms.TimeField(
        label=_("Sin avisos desde"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    quiet_end = forms.TimeField(
        label=_("hasta"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )

    #: The device (Web Push) switches, shown only when the server has VAPID keys.
    PUSH_FIELDS = tuple(f"push_{kind}" for kind in NoticePreferences.PUSH_KINDS)

    class Meta:
        model = NoticePreferences
        fields = list(NoticePreferences.EDITABLE)

    def __init__(self, *args, push: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._keep_saved_zone()
        if not push:  # left out, so that saving the form leaves them as they are
            for name in self.PUSH_FIELDS:
                del self.fields[name]

    def _keep_saved_zone(self) -> None:
        """A zone saved before the list left it out shows as its place when it is an
        alias (saving stores the place: the same clock), else as an option of its own
        ("Etc/GMT+5"), so that saving the other preferences keeps it."""
        saved = self.initial.get("time_zone")
        if not saved or saved in offered():
            return
        if offered_name(saved):
            self.initial["time_zone"] = offered_name(saved)
        else:
            field = self.fields["time_zone"]
            field.choices = [(saved, saved.replace("_", " ")), *field.choices]

    def push_fields(self) -> list:
        """The bound device switches (none without VAPID keys)."""
        return [self[name] for name in self.PUSH_FIELDS if name in self.fields]

    def clean(self) -> dict:
        data = super().clean()
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError(
                _("Indica las dos horas del silencio, o ninguna."), code="quiet_hours"
            )
        return data
