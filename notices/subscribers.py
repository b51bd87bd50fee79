"""The ``notices`` app's subscribers to the table events (``tables.events``), registered by
``NoticesConfig.ready``: each queues the task that writes the players' notices
(``notices.tasks``, ``notices.moderation_tasks``), which then pushes and e-mails what is
due. The tasks take ids, re-read, and write each notice once (``Notification``'s unique
key, the hands a ``hand_over`` told, the message ids a ``talk`` told), so a delivery
repeated writes nothing twice."""

from __future__ import annotations

from notices import moderation_tasks, presence, services, tasks
from tables import arrivals, events, unread


def tell_turn(delivery: events.Delivery) -> None:
    """A person's turn began: their "your turn" notice (``record_turn``, once per turn's
    version). Nothing at a bot's turn, nor when the mover has the turn again (they are
    at the table)."""
    event = delivery.event
    if not event.bot and not event.same_player:
        tasks.record_turn.apply_async((event.table_id, event.version))


def tell_hand_ended(delivery: events.Delivery) -> None:
    """A hand ended and the match goes on: everyone's ``hand_over`` notice."""
    event = delivery.event
    tasks.record_hand_over.apply_async((event.table_id, event.number))


def tell_match_ended(delivery: events.Delivery) -> None:
    """The match ended: everyone's notice, and its e-mails."""
    event = delivery.event
    tasks.record_match_over.apply_async((event.table_id, event.closed_by))


def release_talk(delivery: events.Delivery) -> None:
    """A hand ended (``HandEnded``) or the table did (``MatchEnded``): the talk that hand
    held back reaches the others, and with it their ``talk`` notices."""
    event = delivery.event
    hand_number = event.number if isinstance(event, events.HandEnded) else None
    moderation_tasks.record_talk_released.apply_async((event.table_id, hand_number))


def tell_seat_taken(delivery: events.Delivery) -> None:
    """Someone took a seat through an invite: the others' notices (and the start's)."""
    event = delivery.event
    tasks.record_seat_taken.apply_async((event.table_id, event.user_id))


def tell_seat_left(delivery: events.Delivery) -> None:
    """A guest gave up their seat at a waiting table: the others' notices."""
    event = delivery.event
    tasks.record_seat_left.apply_async(
        (event.table_id, event.user_id, event.name, event.seat_index, event.version)
    )


def tell_rematch_offered(delivery: events.Delivery) -> None:
    """A rematch was asked for: each person offered a seat there is told."""
    tasks.record_rematch_offered.apply_async((delivery.event.rematch_id,))


def tell_talk(delivery: events.Delivery) -> None:
    """Talk reached the table's readers: their ``talk`` notices."""
    event = delivery.event
    moderation_tasks.record_talk.apply_async((event.table_id, list(event.message_ids)))


def tell_moderation(delivery: events.Delivery) -> None:
    """A moderator acted: the ``moderation`` notices of the people concerned."""
    moderation_tasks.record_moderation.apply_async((delivery.event.action_id,))


def mark_arrived(sender, *, user_id: int, table_id: int, **kwargs) -> None:
    """A person created or sat down at a table (``tables.arrivals``): they are present
    there (``notices.presence.arrived``), so its first turn is not mailed or pushed."""
    presence.arrived(user_id=user_id, table_id=table_id)


def register() -> None:
    """Subscribe the notice writers, the presence of a person arriving and the unread
    notices' expression (``NoticesConfig.ready``)."""
    unread.register(services.unread_at_table)
    arrivals.person_arrived.connect(mark_arrived, dispatch_uid="notices.subscribers.mark_arrived")
    events.subscribe(events.TurnStarted, tell_turn)
    events.subscribe(events.HandEnded, tell_hand_ended)
    events.subscribe(events.HandEnded, release_talk)
    events.subscribe(events.MatchEnded, tell_match_ended)
    events.subscribe(events.MatchEnded, release_talk)
    events.subscribe(events.SeatTaken, tell_seat_taken)
    events.subscribe(events.SeatLeft, tell_seat_left)
    events.subscribe(events.RematchOffered, tell_rematch_offered)
    events.subscribe(events.TalkPosted, tell_talk)
    events.subscribe(events.ModerationActed, tell_moderation)
