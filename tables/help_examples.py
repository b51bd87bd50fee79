"""The worked scoring examples of the rules page (R17-R23), as data.

Each example is a finished hand: the tiles each seat still holds, how the hand ended
(and who went out), and the numbers the page claims: each seat's count, who scores and
how many points. The page renders these numbers; ``tests/web/test_rules_page.py`` feeds
every example through the engine (``dominoes.scoring`` with ``CLASSIC``) and fails when a
claim differs, so the page cannot disagree with the rules the server plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

#: The players of the examples, seat by seat (names that read the same in both languages).
NAMES = ("Ana", "Beto", "Carmen", "David")


@dataclass(frozen=True)
class Example:
    """One finished hand.

    - ``key``: the example's anchor on the page (``#ej-...``); ``rules``: the rules it shows.
    - ``holdings``: per seat, the tiles it still holds (``"6-4"``); ``[]`` for the seat that
      went out. ``ends``: the line's two ends when the hand blocked (every seat's tiles miss
      both), ``None`` after a domino.
    - ``end``: ``"domino"`` or ``"blocked"``; ``out``: the seat that played its last tile.
    - The claims: ``counts`` (R19), ``winners`` (the seats that score, both partners with 4
      seats; empty when nobody scores) and ``points``.
    """

    key: str
    rules: tuple[str, ...]
    title: str
    holdings: tuple[tuple[str, ...], ...]
    end: str
    counts: tuple[int, ...]
    winners: tuple[int, ...]
    points: int
    out: int | None = None
    ends: tuple[int, int] | None = None

    @property
    def seats(self) -> int:
        return len(self.holdings)

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[: self.seats]


EXAMPLES: tuple[Example, ...] = (
    Example(
        key="ej-domino-2",
        rules=("R17", "R20"),
        title=_("Dominó en la mesa de 2"),
        holdings=((), ("6-5", "4-2", "3-0")),
        end="domino",
        out=0,
        counts=(0, 20),
        winners=(0,),
        points=20,
    ),
    Example(
        key="ej-domino-4",
        rules=("R17", "R20"),
        title=_("Dominó en parejas: las fichas del compañero no cuentan"),
        holdings=(("5-3", "2-2"), (), ("6-1",), ("6-6", "4-0")),
        end="domino",
        out=1,
        counts=(12, 0, 7, 16),
        winners=(1, 3),
        points=19,
    ),
    Example(
        key="ej-cierre-2",
        rules=("R18", "R21"),
        title=_("Mesa cerrada en la mesa de 2"),
        holdings=(("5-4", "1-0"), ("6-3", "3-3", "6-1")),
        end="blocked",
        ends=(2, 2),
        counts=(10, 22),
        winners=(0,),
        points=22,
    ),
    Example(
        key="ej-empate-3",
        rules=("R21", "R23"),
        title=_("Mesa cerrada con empate en la mesa de 3: decide la ficha más baja"),
        holdings=(("3-1", "2-0"), ("3-3", "0-0"), ("6-5", "5-2")),
        end="blocked",
        ends=(4, 4),
        counts=(6, 6, 18),
        winners=(1,),
        points=24,
    ),
    Example(
        key="ej-empate-igual",
        rules=("R23", "R24"),
        title=_("Empate con fichas del mismo valor: nadie suma"),
        holdings=(("4-0", "2-1"), ("3-1", "3-0")),
        end="blocked",
        ends=(6, 6),
        counts=(7, 7),
        winners=(),
        points=0,
    ),
    Example(
        key="ej-cierre-parejas",
        rules=("R18", "R22"),
        title=_("Mesa cerrada en parejas: gana la pareja con menos puntos"),
        holdings=(("6-2",), ("5-5", "6-4"), ("1-0", "2-2"), ("6-5", "4-1")),
        end="blocked",
        ends=(3, 3),
        counts=(8, 20, 5, 16),
        winners=(0, 2),
        points=36,
    ),
    Example(
        key="ej-empate-parejas",
        rules=("R22", "R24"),
        title=_("Mesa cerrada en parejas con empate: nadie suma"),
        holdings=(("6-4", "3-0"), ("6-6",), ("4-4", "2-1"), ("4-3", "3-2")),
        end="blocked",
        ends=(5, 5),
        counts=(13, 12, 11, 12),
        winners=(),
        points=0,
    ),
)
