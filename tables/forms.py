"""The page forms. They only check the shape of the input; ``tables.services`` decides."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables import services
from tables.models import BOT_CHOICES

SEAT_CHOICES = [(2, "2"), (3, "3"), (4, "4")]
TARGET_CHOICES = [(50, "50"), (100, "100")]
PLAYER_CHOICES = [(services.FRIEND, _("Un amigo (te doy un enlace)")), *BOT_CHOICES]


class TableCreateForm(forms.Form):
    """Seats, target and who sits at each other seat (R29). ``others()`` is the list that
    ``services.table_create`` takes: one entry per seat from seat 1, in order; with four
    seats ``seat_2`` is the creator's partner (R2)."""

    seats = forms.TypedChoiceField(
        label=_("Jugadores"), choices=SEAT_CHOICES, coerce=int, initial=2, widget=forms.RadioSelect
    )
    target = forms.TypedChoiceField(
        label=_("Meta"), choices=TARGET_CHOICES, coerce=int, initial=100, widget=forms.RadioSelect
    )
    seat_1 = forms.ChoiceField(label=_("Asiento 2"), choices=PLAYER_CHOICES, initial="friend")
    seat_2 = forms.ChoiceField(
        label=_("Asiento 3"), choices=PLAYER_CHOICES, initial="garabato", required=False
    )
    seat_3 = forms.ChoiceField(
        label=_("Asiento 4"), choices=PLAYER_CHOICES, initial="garabato", required=False
    )

    def clean(self):
        cleaned = super().clean()
        seats = cleaned.get("seats")
        if seats is None:
            return cleaned
        for index in range(1, seats):
            if not cleaned.get(f"seat_{index}"):
                self.add_error(f"seat_{index}", _("Elige quién se sienta aquí."))
        return cleaned

    def others(self) -> list[str]:
        """``["friend" | bot name, ...]`` for seats 1 .. seats-1."""
        seats = self.cleaned_data["seats"]
        return [self.cleaned_data[f"seat_{index}"] for index in range(1, seats)]
