"""Deals and bot choices fixed by the test that makes them.

In production a hand's seed comes from the operating system's CSPRNG (R6) and a bot's
choice from the table's id and version, so a test that plays against the service meets
a new deal on every run, and a table id that depends on which tests ran before it. A
test whose outcome depends on the deal (who must pass, when a hand ends) then fails once
in many runs and never when it is run again. ``fix_deals`` replaces the service's two
sources with streams derived from the test's node id: the same test gets the same deals
and the same bot choices on every run, in any order, and different tests get different
ones. The engine's own ``new_seed`` is left alone (its tests check the CSPRNG).
"""

import hashlib
import itertools
import threading


class FixedSeeds:
    """Seeds for one test: ``new_seed()`` gives 32 bytes from SHA-256 of the test's node id
    and a counter; ``bot_seed(table)`` a 64-bit integer from the node id, the table's rank
    among the tables this test's bots have played at (first seen, first ranked) and its
    version, so a replayed position repeats its choice as ``bot_seed`` does."""

    def __init__(self, node_id: str):
        self._node_id = node_id
        self._deals = itertools.count()
        self._ranks: dict[int, int] = {}
        self._lock = threading.Lock()

    def _digest(self, text: str) -> bytes:
        return hashlib.sha256(f"{self._node_id}|{text}".encode()).digest()

    def new_seed(self) -> bytes:
        return self._digest(f"deal:{next(self._deals)}")

    def bot_seed(self, table) -> int:
        with self._lock:
            rank = self._ranks.setdefault(table.pk, len(self._ranks))
        return int.from_bytes(self._digest(f"bot:{rank}:{table.version}")[:8], "big")


def fix_deals(monkeypatch, node_id: str) -> FixedSeeds:
    """Make the service's deals and bot choices a function of ``node_id`` (see module doc)."""
    from tables.services import lobby, play, transitions

    seeds = FixedSeeds(node_id)
    monkeypatch.setattr(transitions, "new_seed", seeds.new_seed)
    monkeypatch.setattr(lobby, "new_seed", seeds.new_seed)
    monkeypatch.setattr(play, "bot_seed", seeds.bot_seed)
    return seeds
