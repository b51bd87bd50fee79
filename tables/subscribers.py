"""The ``tables`` app's subscribers to the events (``tables.events``), registered by
``TablesConfig.ready``: a bot's turn is queued when it begins (``TurnStarted`` at a bot's
seat, after ``BOT_DELAY_SECONDS``; at once for ``BotTurnLost``), and an analysis when it
is asked for. Each queues its Celery task (``tables.tasks``) with the event's ids; the
task re-reads and does nothing the second time (``bot_play`` checks the version, an
analysis is computed once), so a delivery repeated is harmless."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from tables import events, tasks


def queue_bot_turn(delivery: events.Delivery) -> None:
    """A bot's turn began (``TurnStarted`` with ``bot``) or was lost (``BotTurnLost``):
    queue ``tables.tasks.bot_play`` at the event's version, ``BOT_DELAY_SECONDS`` after
    the event was written (what is left of them; none for a lost turn). A person's turn
    is no bot's: nothing."""
    event = delivery.event
    if isinstance(event, events.TurnStarted) and not event.bot:
        return
    options = {}
    if isinstance(event, events.TurnStarted):
        waited = (timezone.now() - delivery.written_at).total_seconds()
        if settings.BOT_DELAY_SECONDS > waited:
            options["countdown"] = settings.BOT_DELAY_SECONDS - waited
    tasks.bot_play.apply_async((event.table_id, event.version), **options)


def queue_analysis(delivery: events.Delivery) -> None:
    """An analysis was asked for: queue ``tables.tasks.analyse_match``."""
    tasks.analyse_match.apply_async((delivery.event.analysis_id,))


def register() -> None:
    """Subscribe the bot's turn and the analysis (``TablesConfig.ready``)."""
    events.subscribe(events.TurnStarted, queue_bot_turn)
    events.subscribe(events.BotTurnLost, queue_bot_turn)
    events.subscribe(events.AnalysisRequested, queue_analysis)
