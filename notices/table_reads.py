"""What reads of tables record, once their answers have gone (``core.table_reads``): each
reader is present there (``notices.presence``, in the cache), their seats have seen the
version they were shown (``tables.services.seats_seen``) and that table's notices are
read. Connected to ``core.table_reads.table_was_read`` when the app starts."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q
from django.utils import timezone

from core.table_reads import TableRead
from notices import presence
from notices.models import Notification
from tables import services as table_services


def record_table_reads(*, reads: list[TableRead], **_signal) -> None:
    """Record ``reads``: one cache write for all (presence, for ``PRESENCE_SECONDS``);
    the seats' seen version of the reads not ``seen``, one conditional UPDATE per table
    and version (of no row when it was saved already); the notices of those tables marked
    read, one query for all the reads whose ``unread`` is not False (a SELECT when there
    are none, then the UPDATE). Each statement is its own (autocommit): none holds a lock
    past itself."""
    presence.record_many({(read.user_id, read.table_id): read.at for read in reads})
    unseen: dict[tuple[int, int], set[int]] = defaultdict(set)
    for read in reads:
        if not read.seen:
            unseen[(read.table_id, read.version)].add(read.user_id)
    for (table_id, version), user_ids in unseen.items():
        table_services.seats_seen(user_ids=user_ids, table_id=table_id, version=version)
    asked = {(read.user_id, read.table_id) for read in reads if read.unread is not False}
    if asked:
        where = Q()
        for user_id, table_id in asked:
            where |= Q(recipient_id=user_id, table_id=table_id)
        rows = Notification.objects.filter(where, read_at__isnull=True)
        if rows.exists():  # a poll of a table with nothing unread writes nothing
            rows.update(read_at=timezone.now())
