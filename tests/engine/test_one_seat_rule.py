"""Partnerships and seat rotation are written once: a seat's side through
``Rules.team_of`` (R2) and the seat after another through ``dominoes.seats.seat_after`` (or
its table ``next_seats``, R3). This test reads the engine's sources (and the service's
seating helpers) for the arithmetic
written out again: a seat's parity (``% 2``), a seat plus a step modulo the table size,
or the next seat wrapped by hand (``seat + 1 if seat + 1 < seats else 0``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dominoes.rules import CLASSIC, PROFILES
from dominoes.seats import next_seats, seat_after

ROOT = Path(__file__).resolve().parents[2]

#: The rule's arithmetic, written out.
PATTERNS = {
    "parity": re.compile(r"%\s*2\b"),
    "rotation": re.compile(r"\+\s*[\w.]+\)\s*%\s*[\w.(]"),
    "wrap": re.compile(r"\+\s*1\s+if\s+.*\+\s*1\s*<"),
}

#: Where the rule itself is written: its one definition.
DEFINITIONS = {"dominoes/rules.py": 1, "dominoes/seats.py": 1}

#: Service modules that seat people by the same rules (their pure seating helpers).
SERVICE_FILES = ("tables/naming.py", "tables/seating.py")


def _sites() -> dict[str, int]:
    found: dict[str, int] = {}
    paths = [*(ROOT / "dominoes").rglob("*.py"), *(ROOT / name for name in SERVICE_FILES)]
    for path in sorted(paths):
        name = path.relative_to(ROOT).as_posix()
        for line in path.read_text().splitlines():
            code = line.split("#", 1)[0]
            if any(p.search(code) for p in PATTERNS.values()) and "``" not in code:
                found[name] = found.get(name, 0) + 1
    return found


def test_partnerships_and_rotation_are_written_once() -> None:
    sites = _sites()
    assert sites == DEFINITIONS


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_seat_after_is_the_rotation(seats: int) -> None:
    assert [seat_after(s, seats) for s in range(seats)] == [*range(1, seats), 0]
    assert next_seats(seats) == tuple(seat_after(s, seats) for s in range(seats))
    assert [seat_after(s, seats, 2) for s in range(seats)] == [
        (s + 2) % seats for s in range(seats)
    ]


def test_team_of_pairs_opposite_seats() -> None:
    assert [PROFILES["cuban"].team_of(s, 4) for s in range(4)] == [0, 1, 0, 1]
    assert [CLASSIC.team_of(s, 3) for s in range(3)] == [0, 1, 2]
