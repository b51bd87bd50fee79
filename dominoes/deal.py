"""Seeded, verifiable shuffles and deals (R4-R6).

The algorithm, so that anyone holding a revealed seed can recompute a deal:

1. The byte stream is SHA-256(seed || counter) for counter = 0, 1, 2, ... (8-byte
   big-endian), concatenated.
2. ``uniform_below(n)`` reads 8-byte big-endian integers from the stream and rejects any
   value ``>= 2**64 - (2**64 % n)``, then returns ``value % n`` (no modulo bias).
3. A shuffle is Fisher-Yates over the set in ``full_set`` order (heaviest first: 6-6, 6-5,
   ..., 0-0): for ``i`` from the last index down to 1, swap ``i`` with ``uniform_below(i+1)``.
4. Seat 0 takes the first ``tiles_per_seat`` tiles, seat 1 the next, and so on; the rest is
   the stock in draw order.
5. If a seat holds too many doubles (R5), or, when the profile's lead must be a double
   (``first_lead == "double"``), no seat holds a double, shuffle again from step 3,
   continuing the same stream, until the deal stands.
6. Profiles whose first leader is drawn by lot (``first_lead == "lot"``) continue the same
   stream after the deal that stands: one more shuffle of the set (step 3), seat ``s``
   draws its ``s``-th tile, and the heaviest draw leads (value, then high pip; R9's order).

The set is the profile's (``Rules.tile_set``: double-``max_pip`` minus any excluded tile).

Seeds come from ``secrets`` (a CSPRNG); the table publishes ``seed_sha256`` when the hand
starts and the seed when it ends (R6).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence

from dominoes.rules import Rules
from dominoes.tiles import Tile, heaviest

_TWO_64 = 1 << 64


def new_seed() -> bytes:
    """32 bytes from the operating system's CSPRNG (R6)."""
    return secrets.token_bytes(32)


def seed_sha256(seed: bytes) -> str:
    """The published commitment to a hand's seed: SHA-256 of its bytes, lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


class SeedStream:
    """Uniform integers drawn from SHA-256 in counter mode over ``seed`` (see module doc)."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._blocks = self._generate()

    def _generate(self) -> Iterator[int]:
        counter = 0
        while True:
            digest = hashlib.sha256(self._seed + counter.to_bytes(8, "big")).digest()
            for offset in range(0, 32, 8):
                yield int.from_bytes(digest[offset : offset + 8], "big")
            counter += 1

    def uniform_below(self, n: int) -> int:
        """An integer in ``range(n)``, every value equally likely; ``n`` >= 1."""
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            value = next(self._blocks)
            if value < limit:
                return value % n

    def shuffle(self, items: Sequence[Tile]) -> list[Tile]:
        """A Fisher-Yates shuffle of ``items`` (a new list)."""
        order = list(items)
        for i in range(len(order) - 1, 0, -1):
            j = self.uniform_below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order


def needs_redeal(rules: Rules, dealt: Sequence[Sequence[Tile]]) -> int | None:
    """The first seat holding ``rules.redeal_doubles`` doubles or more (R5), else ``None``.

    When the lead must be a double (``first_lead == "double"``) and no seat holds one, the
    answer is ``-1`` (every seat's deal is void)."""
    if rules.first_lead == "double" and not any(t.is_double for tiles in dealt for t in tiles):
        return -1
    if rules.redeal_doubles is None:
        return None
    for seat, tiles in enumerate(dealt):
        if sum(1 for tile in tiles if tile.high == tile.low) >= rules.redeal_doubles:
            return seat
    return None


def deal(
    rules: Rules, seats: int, seed: bytes
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """Deal a hand from ``seed``: ``(dealt, stock)``, redealing as R5 demands.

    ``dealt[s]`` is seat ``s``'s tiles in the order dealt; ``stock`` is the rest in draw
    order (R4). Raises ``ValueError`` when ``seats`` is not allowed by ``rules`` (R2).
    """
    if seats not in rules.seat_counts:
        raise ValueError(f"{rules.name} is played with {rules.seat_counts} seats, not {seats}")
    dealt, stock, _ = _deal(rules, seats, seed)
    return dealt, stock


def _deal(rules: Rules, seats: int, seed: bytes):
    per_seat = rules.tiles_per_seat[seats]
    stream = SeedStream(seed)
    tiles = rules.tile_set()
    while True:
        order = stream.shuffle(tiles)
        dealt = tuple(tuple(order[s * per_seat : (s + 1) * per_seat]) for s in range(seats))
        if needs_redeal(rules, dealt) is None:
            return dealt, tuple(order[seats * per_seat :]), stream


def lot_draw(rules: Rules, seats: int, seed: bytes) -> tuple[Tile, ...]:
    """The tiles the seats draw to choose the first leader by lot (step 6 of the module
    doc): ``draws[s]`` is seat ``s``'s tile."""
    if seats not in rules.seat_counts:
        raise ValueError(f"{rules.name} is played with {rules.seat_counts} seats, not {seats}")
    _, _, stream = _deal(rules, seats, seed)
    return tuple(stream.shuffle(rules.tile_set())[:seats])


def lot_leader(rules: Rules, seats: int, seed: bytes) -> int:
    """The seat whose lot draw is heaviest (value, then high pip): it leads the first hand
    of a ``first_lead == "lot"`` profile."""
    draws = lot_draw(rules, seats, seed)
    return draws.index(heaviest(draws))
