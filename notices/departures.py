"""A deleted account leaves the other players' notices: the ``forget`` step of
``accounts.services.account_delete`` (registered in ``notices.apps``)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from notices.models import Notification
from tables.models import Seat


def _renamed(value, name: str, placeholder: str):
    """``value`` (a notice's payload or a part of it) with every string equal to ``name``
    written ``placeholder``, in lists and dicts at any depth."""
    if isinstance(value, dict):
        return {key: _renamed(item, name, placeholder) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, name, placeholder) for item in value]
    return placeholder if value == name else value


def unname_deleted_player(user) -> None:
    """The other players' notices of the tables where ``user`` still holds a seat (after
    the ``leave`` stage: a guest who gave up a waiting table's seat holds none there)
    stop naming them: each payload's ``user.username`` becomes «jugador eliminado», as the
    tables' seats say it, in the recipient's language ("u05: 2 mensajes nuevos" reads
    "jugador eliminado: 2 mensajes nuevos"). Notices are drawn from their payload whenever
    they are read or mailed, so the inbox, the API and a mail not yet sent all follow."""
    table_ids = set(Seat.objects.filter(user=user).values_list("table_id", flat=True))
    rows = (
        Notification.objects.filter(table_id__in=table_ids)
        .exclude(recipient=user)
        .select_related("recipient")
    )
    for row in rows:
        with translation.override(row.recipient.language or None):
            placeholder = gettext("jugador eliminado")
        payload = _renamed(row.payload, user.username, placeholder)
        if payload != row.payload:
            row.payload = payload
            row.save(update_fields=["payload"])
