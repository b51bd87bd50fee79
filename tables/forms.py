"""The page forms. They check the input's shape and the chosen rule profile's limits
(its table sizes and targets, ``dominoes.rules``); ``tables.services`` decides the rest."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dominoes.rules import CLASSIC, PROFILES
from tables import seating
from tables.errors import either
from tables.help import profile_label
from tables.models import BOT_CHOICES
from tables.move_time import DAY, MOVE_DAYS, move_time_label

SEAT_CHOICES = [(2, "2"), (3, "3"), (4, "4")]
PLAYER_CHOICES = [(seating.FRIEND, _("Un amigo (te doy un enlace)")), *BOT_CHOICES]


def rules_choices() -> list[tuple[str, str]]:
    """The profiles a table may be created with (``seating.offered_profiles``), classic
    first, each with its human name."""
    return [(name, profile_label(name)) for name in seating.offered_profiles()]


def move_time_choices() -> list[tuple[int, str]]:
    """The move times a creator may pick (R27), in days: ``[(1, "1 día"), ...]``."""
    return [(days, move_time_label(days * DAY)) for days in MOVE_DAYS]


def target_choices() -> list[tuple[int, str]]:
    """Every target some offered profile plays to (a single-hand profile has none to choose)."""
    targets = {
        target
        for name in seating.offered_profiles()
        if not PROFILES[name].single_hand
        for target in PROFILES[name].targets
    }
    return [(target, str(target)) for target in sorted(targets)]


class TableCreateForm(forms.Form):
    """Rules, seats, target and who sits at each other seat (R29). ``others()`` is the list
    that ``services.table_create`` takes: one entry per seat from seat 1, in order; with
    four seats in pairs ``seat_2`` is the creator's partner (R2).

    The seats and the target must be ones the chosen profile offers (its ``seat_counts``
    and ``targets``); a single-hand profile has no target to choose (``target`` is then
    ``None``). A form sent without ``rules`` is a classic table.

    ``seven_plus_seven`` (one person plays both hands of a pair): the creator holds seats
    1 and 3 as the page counts them (0 and 2), ``seat_1`` is the rival pair (a friend, or
    a bot at each of its seats) and ``seat_2``/``seat_3`` are ignored.

    ``move_days`` (1, 2, 3 or 7; R27) is the move time of a table with a friend invited;
    against bots only it is ignored (the service keeps ``ABSENCE_SECONDS``)."""

    rules = forms.ChoiceField(
        label=_("Reglas"), choices=rules_choices, initial=CLASSIC.name, required=False
    )
    seats = forms.TypedChoiceField(
        label=_("Jugadores"), choices=SEAT_CHOICES, coerce=int, initial=2, widget=forms.RadioSelect
    )
    target = forms.TypedChoiceField(
        label=_("Meta"),
        choices=target_choices,
        coerce=int,
        initial=50,  # the rules page's first option
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    move_days = forms.TypedChoiceField(
        label=_("Tiempo por jugada"),
        choices=move_time_choices,
        coerce=int,
        initial=2,  # R27's two days
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    seat_1 = forms.ChoiceField(label=_("Asiento 2"), choices=PLAYER_CHOICES, initial=seating.FRIEND)
    # Every seat starts as "a friend": a player who picks 3 or 4 seats never silently
    # gets a bot (the page's script lets a choice for seat 2 follow to the seats after it).
    seat_2 = forms.ChoiceField(
        label=_("Asiento 3"), choices=PLAYER_CHOICES, initial=seating.FRIEND, required=False
    )
    seat_3 = forms.ChoiceField(
        label=_("Asiento 4"), choices=PLAYER_CHOICES, initial=seating.FRIEND, required=False
    )

    def clean(self):
        cleaned = super().clean()
        name = cleaned.get("rules") or CLASSIC.name
        cleaned["rules"] = name
        profile = PROFILES[name]
        seats = cleaned.get("seats")
        if seats is not None and seats not in profile.seat_counts:
            self.add_error(
                "seats",
                _("Con estas reglas una mesa tiene %(counts)s jugadores.")
                % {"counts": either(profile.seat_counts)},
            )
            seats = None
        if profile.single_hand:
            cleaned["target"] = None  # one hand decides: nothing to choose
        elif "target" not in self.errors:
            target = cleaned.get("target")
            if target is None and len(profile.targets) == 1:
                cleaned["target"] = profile.targets[0]
            elif target not in profile.targets:
                self.add_error(
                    "target",
                    _("Con estas reglas la meta es de %(targets)s puntos.")
                    % {"targets": either(profile.targets)},
                )
        if seats is None:
            return cleaned
        if seating.holds_two_hands(name):
            seats = 2  # only seat_1 (the rival pair) is chosen
        for index in range(1, seats):
            if not cleaned.get(f"seat_{index}"):
                self.add_error(f"seat_{index}", _("Elige quién se sienta aquí."))
        return cleaned

    def others(self) -> list[str]:
        """``["friend" | bot name, ...]`` for seats 1 .. seats-1 (for ``seven_plus_seven``
        one entry: the rival pair, as ``services.table_create`` takes it)."""
        if seating.holds_two_hands(self.cleaned_data["rules"]):
            return [self.cleaned_data["seat_1"]]
        seats = self.cleaned_data["seats"]
        return [self.cleaned_data[f"seat_{index}"] for index in range(1, seats)]
