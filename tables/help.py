"""The rules page (``/reglas/``, public) and the words the table page uses to explain a
finished hand with its numbers (``summary_strings``, merged into ``tables.ui_strings``).

The rules themselves are prose in one template per page, ``help/rules.html`` and
``help/profiles.html``, written in Spanish with translated blocks (English in
``locale/en``; every rule keeps its RULES.md id as an anchor, ``/reglas/#R22``). The
worked examples are data (``tables.help_examples``) turned into sentences here, so every
number on the page comes from the checked data.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from dominoes.reason import HandReason
from dominoes.rules import CLASSIC, PROFILES
from dominoes.scoring import score_blocked, score_domino
from dominoes.tiles import parse_tile
from tables.help_examples import EXAMPLES, Example
from tables.plurals import Words, plural_forms
from tables.seating import holds_two_hands


def _prose_context(request: HttpRequest) -> dict[str, Any]:
    """What both help pages need: the reader's ``pip_colour`` (coloured when signed out)."""
    user = request.user
    pip_colour = getattr(user, "pip_colour", "coloured") if user.is_authenticated else "coloured"
    return {"pip_colour": pip_colour}


def rules(request: HttpRequest) -> HttpResponse:
    """The rules, the table options, the bots and tips for beginners (R1-R31)."""
    context = _prose_context(request)
    context["examples"] = {example.key.replace("-", "_"): present(example) for example in EXAMPLES}
    return render(request, "help/rules.html", context)


def _equation(counts: list[int], total: int) -> str:
    """``"12 + 7 = 19"``, or just ``"20"`` for a single count."""
    if len(counts) == 1:
        return str(total)
    return " + ".join(str(count) for count in counts) + f" = {total}"


def _names(names: list[str]) -> str:
    if len(names) <= 2:
        return _(" y ").join(names)
    return ", ".join(names[:-1]) + _(" y ") + names[-1]


def reason(example: Example) -> HandReason:
    """How the engine decides ``example``'s hand under the classic rules
    (``dominoes.reason.HandReason``): the page's sentences are made of its parts."""
    holdings = [[parse_tile(tile) for tile in tiles] for tiles in example.holdings]
    if example.end == "domino":
        result = score_domino(CLASSIC, holdings, example.out)
    else:
        result = score_blocked(CLASSIC, holdings)
    assert result.reason is not None
    return result.reason


def present(example: Example) -> dict[str, Any]:
    """What the page shows of ``example``: a row per seat (name, team, tiles, count) and
    the sentences that explain the result, every number taken from the engine's reason
    (``reason``; ``tests/web/test_rules_page.py`` checks it against the example's claims)."""
    why = reason(example)
    pairs = why.team_counts is not None
    team_name = _team_names()
    rows = [
        {
            "name": example.names[seat],
            "team": team_name[CLASSIC.team_of(seat, example.seats)] if pairs else "",
            "tiles": list(tiles),
            "count": why.counts[seat],
            "winner": seat in why.winners,
        }
        for seat, tiles in enumerate(example.holdings)
    ]
    if why.went_out is not None:
        lines = _domino_lines(example, why)
    elif pairs:
        lines = _pairs_blocked_lines(example, why)
    else:
        lines = _blocked_lines(example, why)
    return {"example": example, "rows": rows, "lines": lines, "explanation": why.to_dict()}


def _team_names() -> tuple[str, str]:
    return (_("Pareja A"), _("Pareja B"))


def _domino_lines(example: Example, why: HandReason) -> list[str]:
    """The sentences of a hand won by a domino (R17, R19, R20), of the reason ``why``."""
    names = example.names
    counts = why.counts
    lines: list[str] = []
    out = why.went_out
    sum_ = _equation(list(why.addends), why.points)
    lines.append(_("%(name)s coloca su última ficha: dominó.") % {"name": names[out]})
    partner = why.uncounted_partner
    if partner is not None:
        lines.append(
            _("Lo que le queda a %(partner)s (%(count)s) no cuenta: es la pareja de %(name)s.")
            % {"partner": names[partner], "count": counts[partner], "name": names[out]}
        )
        lines.append(
            _("%(names)s se llevan lo que les queda a los rivales: %(sum)s puntos.")
            % {"names": _names([names[out], names[partner]]), "sum": sum_}
        )
    elif why.scored == "rival":
        lines.append(_("Se lleva lo que le queda a su rival: %(sum)s puntos.") % {"sum": sum_})
    else:
        lines.append(_("Se lleva lo que les queda a sus rivales: %(sum)s puntos.") % {"sum": sum_})
    return lines


def _pairs_blocked_lines(example: Example, why: HandReason) -> list[str]:
    """The sentences of a blocked hand between pairs (R18, R22), of the reason ``why``."""
    team_name = _team_names()
    names = example.names
    counts = why.counts
    lines: list[str] = []
    pip = example.ends[0] if example.ends else ""
    lines.append(
        _("Mesa cerrada: las dos puntas muestran el %(pip)s y nadie tiene ese número.")
        % {"pip": pip}
    )
    for team in (0, 1):
        seats = [s for s in range(4) if CLASSIC.team_of(s, 4) == team]
        total = why.team_counts[team]
        lines.append(
            _("%(team)s (%(names)s): %(sum)s.")
            % {
                "team": team_name[team],
                "names": _names([names[s] for s in seats]),
                "sum": _equation([counts[s] for s in seats], total),
            }
        )
    if why.winners:
        lines.append(
            _("%(team)s tiene menos puntos y se lleva la cuenta de la otra: %(points)s puntos.")
            % {"team": team_name[CLASSIC.team_of(why.winners[0], 4)], "points": why.points}
        )
    else:
        lines.append(_("Las dos parejas suman lo mismo: nadie suma en esta mano."))
    return lines


def _blocked_lines(example: Example, why: HandReason) -> list[str]:
    """The sentences of a blocked hand without pairs (R18, R21, R23): the lowest count wins,
    ties broken tile by tile, as the engine's reason ``why`` says."""
    names = example.names
    lines: list[str] = []
    pip = example.ends[0] if example.ends else ""
    lines.append(
        _(
            "Mesa cerrada: las dos puntas muestran el %(pip)s, nadie "
            "tiene ese número y el pozo está vacío."
        )
        % {"pip": pip}
    )
    tied = why.tied
    if tied:
        lines.append(
            _("%(names)s empatan con la cuenta más baja: %(count)s.")
            % {"names": _names([names[s] for s in tied]), "count": why.lowest}
        )
        steps = [f"{names[seat]} {', '.join(map(str, values))}" for seat, values in why.tie_break]
        lines.append(
            _("Se comparan sus fichas de la de menor valor a la de mayor: %(values)s.")
            % {"values": "; ".join(steps)}
        )
    if why.winners:
        winner = why.winners[0]
        values = {"name": names[winner], "sum": _equation(list(why.addends), why.points)}
        if tied:
            lines.append(
                _(
                    "Gana %(name)s y se lleva las cuentas de todos los demás, "
                    "empatados incluidos: %(sum)s puntos."
                )
                % values
            )
        else:
            lines.append(
                _("%(name)s tiene la cuenta más baja y se lleva las de los demás: %(sum)s puntos.")
                % values
            )
    else:
        lines.append(_("Las fichas valen lo mismo una a una: nadie suma en esta mano."))
    return lines


def summary_strings() -> Words:
    """The table page's explanation of the last hand with its numbers (``table.js``
    ``renderLastHand``); ``%(rule)s`` becomes a link to the rule on this page."""
    return {
        **_points_sentences(),
        **_points_sentences_you(),
        "why_partner": _("Lo de %(name)s no cuenta: es su pareja."),
        # The reader's own seat, in the second person: the reader is the partner of the
        # seat that went out, or went out and the partner is someone else.
        "why_partner_you": _("Lo tuyo no cuenta: eres su pareja."),
        "why_your_partner": _("Lo de %(name)s no cuenta: es tu pareja."),
        "why_tie": _(
            "Empate con %(count)s: decide la ficha de menor valor (%(rule)s): %(values)s."
        ),
        "why_tie_nobody": _("Las fichas valen lo mismo: nadie suma."),
        "why_teams": _("Gana la pareja con menos puntos (%(rule)s): %(a)s contra %(b)s."),
        "why_teams_tie": _("Empate: nadie suma."),
    }


def _points_sentences_you() -> Words:
    """``_points_sentences`` where the reader's own seat won, in the second person (the
    replay names the viewer's seats so)."""
    return {
        "why_lowest_you": plural_forms(
            lambda n: ngettext(
                "Gana la cuenta más baja (%(rule)s): la tuya, %(count)s; te llevas %(sum)s punto.",
                "Gana la cuenta más baja (%(rule)s): la tuya, %(count)s; te llevas %(sum)s puntos.",
                n,
            )
        ),
        "why_tie_winner_you": plural_forms(
            lambda n: ngettext(
                "Ganas tú y te llevas %(sum)s punto.",
                "Ganas tú y te llevas %(sum)s puntos.",
                n,
            )
        ),
    }


def _points_sentences() -> Words:
    """The sentences that end on the hand's points (``%(sum)s``: "1", "6 + 9 = 15"), each
    in both forms for the script to pick by the points (``plurals.plural_forms``)."""
    return {
        "why_domino": plural_forms(
            lambda n: ngettext(
                "Cuentan las fichas de los rivales (%(rule)s): %(sum)s punto.",
                "Cuentan las fichas de los rivales (%(rule)s): %(sum)s puntos.",
                n,
            )
        ),
        "why_domino_rival": plural_forms(  # at 2 seats, one rival
            lambda n: ngettext(
                "Cuentan las fichas del rival (%(rule)s): %(sum)s punto.",
                "Cuentan las fichas del rival (%(rule)s): %(sum)s puntos.",
                n,
            )
        ),
        "why_domino_all": plural_forms(
            lambda n: ngettext(
                "Cuentan las fichas de todos, también las de la pareja (%(rule)s): %(sum)s punto.",
                "Cuentan las fichas de todos, también las de la pareja (%(rule)s): %(sum)s puntos.",
                n,
            )
        ),
        "why_lowest": plural_forms(
            lambda n: ngettext(
                "Gana la cuenta más baja (%(rule)s): %(name)s, con %(count)s, se lleva %(sum)s "
                "punto.",
                "Gana la cuenta más baja (%(rule)s): %(name)s, con %(count)s, se lleva %(sum)s "
                "puntos.",
                n,
            )
        ),
        "why_tie_winner": plural_forms(
            lambda n: ngettext(
                "Gana %(name)s y se lleva %(sum)s punto.",
                "Gana %(name)s y se lleva %(sum)s puntos.",
                n,
            )
        ),
        "why_lowest_player": plural_forms(
            lambda n: ngettext(
                "Gana la pareja de %(name)s, que tiene la cuenta más baja (%(rule)s), "
                "%(count)s: se lleva %(sum)s punto.",
                "Gana la pareja de %(name)s, que tiene la cuenta más baja (%(rule)s), "
                "%(count)s: se lleva %(sum)s puntos.",
                n,
            )
        ),
        "why_pair_that_led": plural_forms(
            lambda n: ngettext(
                "Empate entre las parejas: gana la pareja que salió (%(rule)s) y se lleva "
                "%(sum)s punto.",
                "Empate entre las parejas: gana la pareja que salió (%(rule)s) y se lleva "
                "%(sum)s puntos.",
                n,
            )
        ),
    }


# --- rule profiles (docs/profiles.md) -------------------------------------------------------

#: Each profile's name for people, as the create form and the table page show it.
PROFILE_LABELS = {
    "classic": gettext_lazy("Clásicas (de la casa)"),
    "international": gettext_lazy("Internacional (parejas, a 200)"),
    "spain_pairs": gettext_lazy("Parejas, federación española (a 150)"),
    "seven_plus_seven": gettext_lazy("Siete más siete (parejas, a 150)"),
    "venezuelan": gettext_lazy("Venezolanas (parejas)"),
    "two_player": gettext_lazy("Dos jugadores"),
    "three_player": gettext_lazy("Tres jugadores (sin blanca doble)"),
    "cuban": gettext_lazy("Cubanas (doble nueve)"),
    "first_double": gettext_lazy("Salida con doble (una mano)"),
}


def profile_label(name: str) -> str:
    """The human name of profile ``name`` (the id itself for one without a label)."""
    return str(PROFILE_LABELS.get(name, name))


def profile_url(name: str) -> str:
    """Where profile ``name``'s rules are explained: the classic rules page (``/reglas/``)
    for ``classic``, else its summary on ``/reglas/perfiles/#perfil-<name>``."""
    if name == CLASSIC.name:
        return reverse("help:rules")
    return reverse("help:profiles") + f"#perfil-{name}"


def profile_facts(name: str) -> dict[str, Any]:
    """What the pages need to know of a profile: its id, human name, rules link, table
    sizes, targets, whether one hand decides, whether 4 seats play in pairs, the set and
    whether the undealt tiles are a stock to draw from, whether one person plays both
    hands of a pair (``two_hands``: ``seven_plus_seven``), and whether a seat that
    abandons leaves a hand that goes on (``leavers_sit_out``: the abandon question says
    so)."""
    rules_ = PROFILES[name]
    return {
        "name": name,
        "label": profile_label(name),
        "url": profile_url(name),
        "seat_counts": list(rules_.seat_counts),
        "targets": list(rules_.targets),
        "single_hand": rules_.single_hand,
        "pairs": rules_.partnerships(4),
        "max_pip": rules_.max_pip,
        "draws": rules_.draw_from_stock,
        "two_hands": holds_two_hands(name),
        "leavers_sit_out": rules_.leavers_sit_out,
    }


def profiles(request: HttpRequest) -> HttpResponse:
    """``/reglas/perfiles/``: a short summary of every other rule profile a table may be
    created with, each under its anchor ``#perfil-<name>`` (docs/profiles.md)."""
    return render(request, "help/profiles.html", _prose_context(request))
