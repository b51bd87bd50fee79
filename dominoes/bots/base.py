"""The bot interface: a ``Bot`` chooses a play from a ``SeatView`` and a seeded RNG."""

from __future__ import annotations

import hashlib
import json
import random

from dominoes.state import Play
from dominoes.view import SeatView


class Bot:
    """A computer player. Subclasses set ``name``, ``display_name``, ``level`` and
    implement ``choose``; they may read only the ``SeatView`` they are given (R31)."""

    name: str = ""
    display_name: str = ""
    level: str = ""

    def choose(self, view: SeatView, rng: random.Random) -> Play:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Bot {self.name} ({self.level})>"


def view_digest(view: SeatView) -> bytes:
    """A digest of everything the seat sees (equal views, equal digests)."""
    text = json.dumps(view.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).digest()


def make_rng(name: str, view: SeatView, seed: int | bytes | None) -> random.Random:
    """The RNG a bot uses for one decision: a function of the bot, the seed and the view,
    so a given seed always gives the same play in the same situation."""
    if seed is None:
        material = b"none"
    elif isinstance(seed, bytes):
        material = b"b" + seed
    elif isinstance(seed, int) and not isinstance(seed, bool):
        material = b"i" + str(seed).encode()
    else:
        raise TypeError(f"a bot seed is an int, bytes or None, not {type(seed).__name__}")
    digest = hashlib.sha256(name.encode() + b"\0" + material + b"\0" + view_digest(view)).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
