"""The notice preferences form (the settings page's "Avisos" section)."""

from __future__ import annotations

from functools import cache

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

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


def duration_words(seconds: int) -> str:
    """``"15 minutos"``, ``"6 horas"``, ``"1 día"``: a configured duration in its largest
    whole unit, in the active language (the settings page's sentences say the server's
    real timings, ``TURN_EMAIL_DELAY_SECONDS`` and the others)."""
    if seconds % 86400 == 0 and seconds >= 2 * 86400:  # 24 h reads "24 horas"
        days = seconds // 86400
        return ngettext("%(n)d día", "%(n)d días", days) % {"n": days}
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hora", "%(n)d horas", hours) % {"n": hours}
    minutes = max(1, round(seconds / 60))
    return ngettext("%(n)d minuto", "%(n)d minutos", minutes) % {"n": minutes}


class NoticePreferencesForm(forms.ModelForm):
    """Per kind and channel (the inbox always gets every notice), the time zone and the
    quiet hours (both or neither; local time), and the player's switch for all e-mail
    (``User.email_notifications``, saved on the user: ``email_switch``)."""

    email_notifications = forms.BooleanField(label=_("Recibir avisos por correo"), required=False)

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
        self.fields["email_notifications"].initial = self.instance.user.email_notifications
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

    def timings(self) -> dict[str, str]:
        """The server's timings the e-mail switches' sentences name, in words: ``delay``
        (a turn unseen this long is mailed: "15 minutos"), ``interval`` (at most one turn
        e-mail this often: "6 horas") and ``reminder`` (the deadline reminder's lead:
        "24 horas")."""
        return {
            "delay": duration_words(settings.TURN_EMAIL_DELAY_SECONDS),
            "interval": duration_words(settings.TURN_EMAIL_MIN_INTERVAL_SECONDS),
            "reminder": duration_words(settings.REMINDER_SECONDS),
        }

    def preference_changes(self) -> dict:
        """The cleaned values that are ``NoticePreferences`` fields (for
        ``services.preferences_update``), without the switch for all e-mail."""
        return {k: v for k, v in self.cleaned_data.items() if k != "email_notifications"}

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
