"""The notice preferences form (the settings page's "Avisos" section)."""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from notices.models import NoticePreferences


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA time zone name, sorted (``Europe/Madrid``, ``America/Havana``, …)."""
    return [(name, name.replace("_", " ")) for name in sorted(available_timezones())]


class NoticePreferencesForm(forms.ModelForm):
    """Per kind and channel (the inbox always gets every notice), the time zone and the
    quiet hours (both or neither; local time)."""

    time_zone = forms.ChoiceField(label=_("Zona horaria"), choices=time_zone_choices)
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
        if not push:  # left out, so that saving the form leaves them as they are
            for name in self.PUSH_FIELDS:
                del self.fields[name]

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
