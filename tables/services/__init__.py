"""Every write to a table goes through here.

Each verb is keyword-only, runs in one transaction, locks the table row
(``select_for_update``) before reading its state, asks the engine (``dominoes``), appends
the Move rows and saves the new snapshot with ``version + 1`` (``transitions``). What a write
caused is recorded as events (``tables.events``) in the ``outbox``, in its transaction, and
handed to the apps' subscribers (the bot's turn, the notices) once it commits, so none sees,
or acts on, a write that rolled back. Views, the admin and
tasks call these functions; nothing else writes. The modules, by the table's life:

- ``lobby``: create a table (R29), join by invite (R30), renew an invite link;
- ``play``: a player's move, a bot's turn, the turn's clock (a lost bot turn, reminders);
- ``idempotency``: the answers remembered per ``Idempotency-Key`` forgotten in time;
- ``endings``: abandon (R26), absence (R27), idle (R28), a moderator's close;
- ``rematch``: a finished table's rematch, offered to the same people, accepted or declined;
- ``analysis``: a finished match's analysis (queued, computed once) and its public replay link;
- ``reads``: a read writes nothing; what it saw is recorded once its answer has gone;
- ``deliveries``: the record of each e-mail to each person (``notices.email``);
- ``transitions`` (lock, save a transition, turn, deadline) and ``outbox`` underneath.

Seating rules (who holds which seats, under which profile) are ``tables.seating``; the
refusals are ``tables.errors``. The public verbs are re-exported here:
``from tables import services; services.move_play(...)``.
"""

from tables.errors import TableError, invite_not_found
from tables.seating import (
    BOT_NAMES,
    FRIEND,
    acting_seat,
    check_invite_token,
    hand_seats,
    holds_two_hands,
    new_invite_token,
    offered_profiles,
)
from tables.services.analysis import (
    analysis_request,
    analysis_run,
    replay_publish,
    replay_unpublish,
)
from tables.services.deliveries import (
    deliveries_forget,
    delivery_claim,
    delivery_refused,
    delivery_release,
    delivery_sent,
)
from tables.services.endings import (
    table_abandon,
    table_close_by_moderator,
    table_close_idle,
    table_forfeit_overdue,
)
from tables.services.idempotency import move_requests_forget
from tables.services.lobby import invite_renew, seat_join, table_create
from tables.services.play import (
    bot_play,
    bot_seed,
    move_lock,
    move_play,
    reminder_mark,
    resume_stuck_bot,
)
from tables.services.reads import seats_seen, table_for_user, table_read, table_read_after_write
from tables.services.rematch import rematch_answer, rematch_offer
from tables.services.transitions import ACTIVE, match_of

__all__ = [
    "ACTIVE",
    "BOT_NAMES",
    "FRIEND",
    "TableError",
    "acting_seat",
    "analysis_request",
    "analysis_run",
    "bot_play",
    "bot_seed",
    "check_invite_token",
    "deliveries_forget",
    "delivery_claim",
    "delivery_refused",
    "delivery_release",
    "delivery_sent",
    "hand_seats",
    "holds_two_hands",
    "invite_not_found",
    "invite_renew",
    "match_of",
    "move_play",
    "move_lock",
    "move_requests_forget",
    "new_invite_token",
    "offered_profiles",
    "rematch_answer",
    "rematch_offer",
    "replay_publish",
    "replay_unpublish",
    "reminder_mark",
    "resume_stuck_bot",
    "seat_join",
    "seats_seen",
    "table_abandon",
    "table_close_by_moderator",
    "table_close_idle",
    "table_create",
    "table_for_user",
    "table_read",
    "table_read_after_write",
    "table_forfeit_overdue",
]
