"""Player guards: checks other apps add to who may take a seat, without tables importing
them (``moderation`` refuses a suspended player). A guard is ``guard(user, action)``,
``action`` one of ``"create"`` or ``"join"``, and raises a ``TableError`` to refuse;
``tables.services.lobby`` calls ``check(user, action)`` before it writes anything, and
``tables.services.rematch`` before asking for a rematch (``"create"``) or accepting one
(``"join"``). The pages ask ``refusal(user, action)`` to leave out the buttons that
would be refused.
"""

from __future__ import annotations

from collections.abc import Callable

from rest_framework.exceptions import APIException

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


def refusal(user, action: str) -> APIException | None:
    """The refusal ``check(user, action)`` would raise (a ``TableError``, e.g. 403
    ``suspended``; caught as its base, ``APIException``: this module sits beside
    ``tables.errors``, not above it), or ``None`` when ``user`` may do ``action``; for
    pages that leave out, and explain, what would be refused."""
    try:
        check(user, action)
    except APIException as error:
        return error
    return None
