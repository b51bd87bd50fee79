"""A person arrives at a table when they create it or take a seat at it: they are there,
about to read it. ``person_arrived`` is sent inside that write, before the first turn's
event is delivered, so the app that keeps presence (``notices``: ``notices.presence``,
connected in ``NoticesConfig.ready``) pushes and mails them nothing of it while they are
there; ``tables`` imports none of it. A receiver must not fail the write (presence is one
cache write that logs its own errors)."""

from __future__ import annotations

from django.dispatch import Signal

from tables.models import Table

#: Sent by ``tables.services.lobby`` with ``user_id`` and ``table_id`` (ints); the sender
#: is ``tables.models.Table``.
person_arrived = Signal()


def arrived(*, user_id: int, table_id: int) -> None:
    """Tell the receivers of ``person_arrived`` that ``user_id`` is at ``table_id`` now."""
    person_arrived.send(sender=Table, user_id=user_id, table_id=table_id)
