"""Player guards: checks other apps add to who may take a seat, without tables importing
them (``moderation`` refuses a suspended player). A guard is ``guard(user, action)``,
``action`` one of ``"create"`` or ``"join"``, and raises a ``TableError`` to refuse;
``tables.services.lobby`` calls ``check(user, action)`` before it writes anything.
"""

from __future__ import annotations

from collections.abc import Callable

_guards: list[Callable[[object, str], None]] = []


def register(guard: Callable[[object, str], None]) -> None:
    """Add ``guard`` (once; registering it again changes nothing)."""
    if guard not in _guards:
        _guards.append(guard)


def check(user, action: str) -> None:
    """Run every guard for ``user`` doing ``action`` (``"create"``, ``"join"``); the first
    refusal (a ``TableError``) propagates."""
    for guard in _guards:
        guard(user, action)
