"""The time zones a player picks from (the settings' "Zona horaria", the preferences API):
the places of the tz database's ``zone.tab`` ("America/Havana", "Europe/Madrid": one or
more a country) and UTC. Not the rest of ``zoneinfo.available_timezones()``: legacy
aliases ("US/Eastern", "Asia/Calcutta", "W-SU", "PRC", "Zulu"), fixed offsets
("Etc/GMT+5", "GMT+0") and names that are no place ("localtime", "Factory").

A browser may report an alias (Chrome says "Asia/Calcutta" and "Europe/Kiev"):
``offered_name`` reads it as the place it links to ("Asia/Kolkata", "Europe/Kyiv"), the
same clock. A zone a player saved before this list keeps working: ``ZoneInfo`` reads any
name, and the form and the API take the player's saved zone back as it is."""

from __future__ import annotations

import zoneinfo
from functools import cache
from importlib import resources
from pathlib import Path


def _tz_file(name: str) -> str:
    """A file of the tz database, from where ``zoneinfo`` reads the zones: the system's
    (``TZPATH``), else the ``tzdata`` package's."""
    for directory in zoneinfo.TZPATH:
        path = Path(directory) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return (resources.files("tzdata") / "zoneinfo" / name).read_text(encoding="utf-8")


@cache
def offered() -> frozenset[str]:
    """The zone names a player may pick: ``zone.tab``'s places that ``zoneinfo`` knows,
    and UTC."""
    rows = (line.split("\t") for line in _tz_file("zone.tab").splitlines())
    places = {row[2] for row in rows if len(row) > 2 and not row[0].startswith("#")}
    return frozenset(places & zoneinfo.available_timezones() | {"UTC"})


@cache
def _links() -> dict[str, str]:
    """Each alias and the zone it links to (``tzdata.zi``'s ``L zone alias`` lines)."""
    rows = (line.split() for line in _tz_file("tzdata.zi").splitlines())
    return {row[2]: row[1] for row in rows if len(row) == 3 and row[0] == "L"}


def _zone_of(name: str) -> str:
    """The zone ``name`` links to, through links of links; ``name`` when it is a zone."""
    links = _links()
    for _ in range(5):
        if name not in links:
            break
        name = links[name]
    return name


@cache
def _places() -> dict[str, str]:
    """Each zone an offered name stands for, and that name (the zone's own name first)."""
    places: dict[str, str] = {}
    for name in sorted(offered(), key=lambda name: (_zone_of(name) != name, name)):
        places.setdefault(_zone_of(name), name)
    return places


def offered_name(name: str) -> str | None:
    """``name`` as the list offers it: itself when offered; for an alias, the offered
    place with the same clock ("Asia/Calcutta" -> "Asia/Kolkata", "US/Eastern" ->
    "America/New_York", "Etc/UTC" -> "UTC"); None for anything else ("Etc/GMT+5",
    "Factory", "Mars/Olympus")."""
    if name in offered():
        return name
    return _places().get(_zone_of(name))
