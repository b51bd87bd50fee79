"""How a player is told who else sits at their table: "con bob y Nino", or in pairs (R2)
"con carol (tu pareja) contra bob y dave", the others in play order after them (R3).

"Mis mesas", "Partidas terminadas" and the notices (inbox, e-mail, push) all say it with
these functions. Pure: plain player dicts in, text out in the active language.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dominoes.seats import seat_after


def after_seat(players: Sequence[dict], first: int) -> list[dict]:
    """The players (``{"seat", ...}`` by seat index) other than seat ``first`` in play
    order after it (R3: seat ``i`` is followed by ``i + 1``)."""
    return [players[seat_after(first, len(players), step)] for step in range(1, len(players))]


def partners_and_rivals(
    players: Sequence[dict], your_seats: Sequence[int]
) -> tuple[list[dict], list[dict]]:
    """The other players as the person holding ``your_seats`` (ascending) reads them:
    ``(partners, rivals)``, each in play order after their first seat. A partner shares
    the reader's ``team`` (R2); the reader's own seats (both hands of a pair in
    ``seven_plus_seven``) are neither."""
    first = your_seats[0]
    team = players[first]["team"]
    others = [p for p in after_seat(players, first) if p["seat"] not in your_seats]
    return (
        [p for p in others if p["team"] == team],
        [p for p in others if p["team"] != team],
    )


def listed(names: Sequence[str]) -> str:
    """``names`` as one list: "bob", "bob y Nino", "bob, Nino y dave" ("and" in English)."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s y %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def with_names(partners: Sequence[str], rivals: Sequence[str]) -> str:
    """Who else plays, after "Mesa N:": "con bob y Nino" without a partner, else "con
    carol (tu pareja) contra bob y dave". Names in the order given, each once (a person
    holding two seats is one name); a seat nobody holds yet is ``""``, never named but
    counted ("con bob y 1 asiento libre"; a free partner's seat: "con tu pareja (asiento
    libre) contra 2 asientos libres")."""
    names = list(dict.fromkeys(name for name in rivals if name))
    free = sum(1 for name in rivals if not name)
    if free:
        names.append(
            ngettext("%(count)d asiento libre", "%(count)d asientos libres", free) % {"count": free}
        )
    if not partners:
        return _("con %(names)s") % {"names": listed(names)}
    if not partners[0]:
        return _("con tu pareja (asiento libre) contra %(rivals)s") % {"rivals": listed(names)}
    return _("con %(partner)s (tu pareja) contra %(rivals)s") % {
        "partner": partners[0],
        "rivals": listed(names),
    }
