"""What the apps above accounts add to a player's account, without accounts importing
them (accounts sits below tables, notices and moderation): each app registers its part
here from its ``AppConfig.ready``, so the parts follow ``INSTALLED_APPS``' order.

- **Facts on /me** (``add_me_fact``): a value ``MeSerializer`` answers under a name,
  ``read(user)``: ``unread_notifications`` (notices), ``suspended_until`` (moderation).
- **Parts of the data download** (``add_export_part``): a top-level key of
  ``accounts.services.account_export`` and ``read(user)``, its JSON-ready value: ``tables``
  (tables), ``talk_messages`` and ``reports_made`` (moderation), in registration order.
- **Steps of an account's deletion** (``add_deletion_step``): ``step(user)``, run inside
  ``accounts.services.account_delete``'s transaction before the user row goes, stage by
  stage (``DELETION_STAGES``), each stage's steps in registration order.

A name or a stage registered twice keeps one entry (``ready`` may run again in tests).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

#: The stages of a deletion, in the order they run:
#: ``leave``: the player leaves what they take part in (tables: every active table
#: abandoned, R26); ``forget``: what the others keep stops naming them (notices: the
#: others' notices of the tables where they still hold a seat); ``let_go``: the rows that
#: point to the account let go of it (tables: seats kept as «jugador eliminado»,
#: creators cleared), so that the user row can be deleted.
DELETION_STAGES = ("leave", "forget", "let_go")

_me_facts: dict[str, Callable[[object], object]] = {}
_export_parts: dict[str, Callable[[object], object]] = {}
_deletion_steps: dict[str, list[Callable[[object], None]]] = {
    stage: [] for stage in DELETION_STAGES
}


def add_me_fact(name: str, read: Callable[[object], object]) -> None:
    """Answer ``name`` on /me with ``read(user)`` (registering ``name`` again replaces
    its reader)."""
    _me_facts[name] = read


def me_fact(name: str, user) -> object:
    """``name``'s value for ``user``, from the reader an app registered. Raises
    ``ImproperlyConfigured`` when none did (the app that answers it is not installed)."""
    try:
        read = _me_facts[name]
    except KeyError:
        raise ImproperlyConfigured(f"No app registered the /me fact {name!r}.") from None
    return read(user)


def add_export_part(name: str, read: Callable[[object], object]) -> None:
    """Put ``read(user)`` under the key ``name`` of the data download (registering
    ``name`` again replaces its reader, in its first place)."""
    _export_parts[name] = read


def export_parts(user) -> dict[str, object]:
    """Every registered part of ``user``'s data download, in registration order."""
    return {name: read(user) for name, read in _export_parts.items()}


def add_deletion_step(stage: str, step: Callable[[object], None]) -> None:
    """Run ``step(user)`` at ``stage`` (one of ``DELETION_STAGES``) of every account
    deletion; once, however often it is registered. Raises ``ValueError`` for another
    stage."""
    if stage not in _deletion_steps:
        raise ValueError(f"unknown deletion stage {stage!r}; one of {DELETION_STAGES}")
    if step not in _deletion_steps[stage]:
        _deletion_steps[stage].append(step)


def run_deletion_steps(user) -> None:
    """Every registered step for ``user``, stage by stage (call inside the deletion's
    transaction: a step's error goes up and undoes them all)."""
    for stage in DELETION_STAGES:
        for step in _deletion_steps[stage]:
            step(user)
