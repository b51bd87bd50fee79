"""Abuela Quelonia with a test's settings: a cap on sampled deals and her partnership
options at every table, so a test can search small or switch an option on or off."""

from __future__ import annotations

from dominoes.bots.quelonia import TIME_BUDGET, Quelonia
from dominoes.rules import Rules


class Tuned(Quelonia):
    """``Quelonia`` with ``max_worlds`` sampled deals at most (``None``: the table's own)
    and ``options`` (``endgame``, ``settle``, ``legible``) at every table, each left out
    as hers (``Quelonia.option``)."""

    def __init__(
        self,
        rollouts: int | None = None,
        time_budget: float = TIME_BUDGET,
        max_worlds: int | None = None,
        **options: float,
    ) -> None:
        super().__init__(rollouts, time_budget)
        self.max_worlds = max_worlds
        self.options = options

    def option(self, name: str, rules: Rules, seats: int) -> float:
        shipped = super().option(name, rules, seats)  # KeyError for another name
        return self.options.get(name, shipped)

    def budget(self, rules: Rules, seats: int) -> tuple[int, int]:
        rollouts, max_worlds = super().budget(rules, seats)
        return rollouts, (max_worlds if self.max_worlds is None else self.max_worlds)
