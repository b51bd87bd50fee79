"""A finished match's analysis and its public replay link.

The analysis is asked for by a player (``analysis_request``: one row per table, the task
queued on commit) and computed at most once by ``tables.tasks.analyse_match``, which calls
``analysis_run``: it claims the row (queued -> running) under a row lock, rebuilds the
record from the table, judges every human seat's moves from that seat's view
(``dominoes.analysis.analyse``, R31) outside any lock, writing the progress as it goes,
and stores the result (done). A task delivered twice finds the row running or done and
does nothing; a row whose worker died (no progress for ``STALE_SECONDS``) or that failed is
queued again by the next request.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from dominoes.analysis import analyse, quelonia_estimator
from dominoes.record import load_record
from tables import selectors
from tables.errors import no_finished_hand, table_not_finished
from tables.events import AnalysisRequested
from tables.models import Hand, MatchAnalysis, PublicReplay, Table
from tables.services import outbox, transitions

logger = logging.getLogger(__name__)

#: A running analysis with no progress for this long (seconds) lost its worker.
STALE_SECONDS = 600


def _finished_table_of_player(table_id: int, user) -> Table:
    """The locked table ``table_id`` where ``user`` sits, once its match is over.
    Raises ``not_found`` (404, not seated), ``table_not_finished`` (409) or
    ``no_finished_hand`` (409: the match ended inside its first hand, nothing to replay)."""
    table = transitions.lock(table_id)
    transitions.seats_of_user(transitions.table_seats(table), user)
    if table.is_active or table.state is None:
        raise table_not_finished()
    if not Hand.objects.filter(table=table, ended_at__isnull=False).exists():
        raise no_finished_hand()  # abandoned in its first hand: no replay to show
    return table


def _stale(row: MatchAnalysis, now) -> bool:
    return row.status == MatchAnalysis.Status.FAILED or (
        row.status == MatchAnalysis.Status.RUNNING
        and row.updated_at < now - timedelta(seconds=STALE_SECONDS)
    )


def analysis_request(*, table_id: int, user) -> tuple[MatchAnalysis, bool]:
    """Ask for the analysis of finished table ``table_id`` (``user`` sat there). Returns
    ``(row, queued)``: ``queued`` is true when this call queued the work (a new row, or a
    failed or stale one again); otherwise the existing row is returned untouched.

    Raises ``TableError``: ``not_found`` (404, not seated there), ``table_not_finished``
    (409, the match is waiting or playing).
    """
    now = timezone.now()
    with transaction.atomic():
        table = _finished_table_of_player(table_id, user)
        row, created = MatchAnalysis.objects.select_for_update().get_or_create(
            table=table, defaults={"requested_by": user}
        )
        if not created and not _stale(row, now):
            return row, False
        if not created:
            row.status, row.done, row.total = MatchAnalysis.Status.QUEUED, 0, 0
            row.save(update_fields=["status", "done", "total", "updated_at"])
        outbox.record(AnalysisRequested(table_id=None, version=0, analysis_id=row.pk))
    return row, True


def _claim(analysis_id: int) -> MatchAnalysis | None:
    """Mark the row running if it is queued (or failed, or stale); else ``None``."""
    now = timezone.now()
    with transaction.atomic():
        row = MatchAnalysis.objects.select_for_update().filter(pk=analysis_id).first()
        if row is None:
            return None
        if row.status != MatchAnalysis.Status.QUEUED and not _stale(row, now):
            return None
        row.status, row.done = MatchAnalysis.Status.RUNNING, 0
        row.save(update_fields=["status", "done", "updated_at"])
    return row


def analysis_run(*, analysis_id: int) -> bool:
    """Compute analysis ``analysis_id`` if nobody has (``_claim``): the table's record,
    its human seats (no bot), Quelonia with ``settings.ANALYSIS_ROLLOUTS`` simulations a
    move (``None``: her playing budget at the match's table). Returns true
    when this call computed it. An error marks the row failed and is raised again."""
    row = _claim(analysis_id)
    if row is None:
        return False
    table = Table.objects.get(pk=row.table_id)
    seats = list(table.seat_set.filter(bot="").values_list("index", flat=True))

    def progress(done: int, total: int) -> None:
        MatchAnalysis.objects.filter(pk=row.pk).update(
            done=done, total=total, updated_at=timezone.now()
        )

    try:
        record = load_record(selectors.table_record(table))
        result = analyse(record, seats, quelonia_estimator(settings.ANALYSIS_ROLLOUTS), progress)
    except Exception:
        logger.exception("the analysis of table %s failed", table.pk)
        MatchAnalysis.objects.filter(pk=row.pk).update(status=MatchAnalysis.Status.FAILED)
        raise
    MatchAnalysis.objects.filter(pk=row.pk).update(
        status=MatchAnalysis.Status.DONE,
        result=result,
        finished_at=timezone.now(),
        updated_at=timezone.now(),
    )
    return True


def replay_publish(*, table_id: int, user) -> tuple[PublicReplay, bool]:
    """Make finished table ``table_id``'s replay public (``user`` sat there): a random
    token (32 bytes, URL-safe) for ``/partida/<token>/``. Returns ``(link, created)``; a
    second call returns the same link. Raises ``not_found`` (404) or
    ``table_not_finished`` (409)."""
    with transaction.atomic():
        table = _finished_table_of_player(table_id, user)
        existing = PublicReplay.objects.filter(table=table).first()
        if existing is not None:
            return existing, False
        link = PublicReplay.objects.create(
            table=table, token=secrets.token_urlsafe(32), created_by=user
        )
    return link, True


def replay_unpublish(*, table_id: int, user) -> bool:
    """Revoke the public link of table ``table_id``'s replay (any player who sat there):
    the old link answers 404 from now on. Returns whether there was one. Raises
    ``not_found`` (404, not seated)."""
    with transaction.atomic():
        table = transitions.lock(table_id)
        transitions.seats_of_user(transitions.table_seats(table), user)
        deleted, _ = PublicReplay.objects.filter(table=table).delete()
    return deleted > 0
