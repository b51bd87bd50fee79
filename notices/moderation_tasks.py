"""Background work for the notices fed from the moderation app (``notices.from_moderation``):
new table talk and a moderator's action, both inbox only. Queued by this app's subscribers
(``notices.subscribers``) to the events ``moderation.services`` records (``TalkPosted``,
``ModerationActed``), and to a hand's and the match's end for the talk a partnership hand
held.
"""

from __future__ import annotations

from celery import shared_task

from core.faults import TASK_RETRY
from notices import from_moderation
from notices.tasks import RETRY


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def record_talk(table_id: int, message_ids: list[int]) -> int:
    """Talk messages were delivered at ``table_id``: the readers' ``talk`` notices."""
    return len(from_moderation.record_talk(table_id=table_id, message_ids=message_ids))


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def record_talk_released(table_id: int, hand_number: int | None) -> int:
    """Hand ``hand_number`` of ``table_id`` ended (``None``: the table did): the talk it
    held reaches the others, and with it their ``talk`` notices."""
    notices = from_moderation.record_talk_released(table_id=table_id, hand_number=hand_number)
    return len(notices)


@shared_task(autoretry_for=TASK_RETRY, **RETRY)
def record_moderation(action_id: int) -> int:
    """A moderator acted (``ModerationAction`` ``action_id``): the ``moderation`` notices
    of the people concerned."""
    return len(from_moderation.record_moderation(action_id=action_id))
