"""Every write of table talk, reports and moderation goes through here.

Each verb is keyword-only and runs in one transaction; a message locks its table row (as
a move does, ``select_for_update``) so that "the hand running now" and "the move it
follows" are read in step with the moves. Moderator actions each take a reason and write
one line of the moderation log (``ModerationAction``); none acts on a superuser, on a
staff member unless a superuser does, nor on the moderator themselves (``protection``: a
``refused`` line and 403 ``protected_account``, whatever page or program asked). Closing a
table goes through ``tables.services``, the tables' only writer (which sends its e-mails
on commit).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.time_zones import time_zone_of
from moderation import errors, selectors
from moderation.models import (
    MAX_TALK_LENGTH,
    HiddenHandView,
    ModerationAction,
    Report,
    TalkMessage,
    TalkMute,
)
from moderation.text import clean_text
from moderation.ui_strings import PHRASES
from tables import selectors as table_selectors
from tables import services as table_services
from tables.errors import not_found
from tables.events import ModerationActed, TalkPosted
from tables.models import Hand, Move, Seat, Table
from tables.seating import check_seat_exists
from tables.services import outbox

logger = logging.getLogger(__name__)


def refuse_if_suspended(user, action: str = "talk") -> None:
    """Raise ``suspended`` (403) when ``user`` is suspended now. Registered as a player
    guard of ``tables`` (``tables.guards``: creating and joining tables, asking for and
    accepting rematches) and used by ``talk_post``; a suspended player still moves at
    their running tables. The refusal
    dates the suspension's end in ``user``'s saved time zone (UTC while none is)."""
    suspension = selectors.active_suspension(user)
    if suspension is not None:
        raise errors.suspended(suspension.until, time_zone_of(user))


def _person_at(table: Table, seat: int) -> Seat:
    """The seat ``seat`` of ``table`` when a person sits there. Raises ``TableError``:
    ``no_such_seat`` (400: the table has no such seat, ``check_seat_exists``), ``not_found``
    (404: an empty seat or a bot's)."""
    check_seat_exists(seat, table.seats)
    target = next((s for s in table.seat_set.all() if s.index == seat and s.user_id), None)
    if target is None:
        raise not_found()
    return target


def talk_post(*, table_id: int, user, text: str = "", phrase: str = "") -> TalkMessage:
    """``user`` writes to the talk of ``table_id``: free ``text`` (plain text, 1-300
    characters once trimmed) or a quick ``phrase`` key (``moderation.ui_strings.PHRASES``),
    exactly one of them.

    At a partnership table (4 seats) whose hand is running the message is ``held``: it
    reaches nobody else until that hand ends (``moderation.selectors``). Each message
    records the hand running and the last move of it so far, and whether the match was
    already over (``after_match``: its marker then says so, not that last move).

    Raises ``TableError``: ``not_found`` (404: no such table, or ``user`` not seated),
    ``suspended`` (403), ``invalid`` (400: nothing a reader can see, too long, control
    characters or bidi controls, more than 4 marks on one letter or more than 10 lines:
    ``moderation.text.clean_text``; both or neither of text and phrase, unknown phrase).
    """
    text = clean_text(text)
    if text and phrase:
        raise errors.invalid(gettext("Escribe un mensaje o elige una frase, no las dos cosas."))
    if not text and not phrase:
        raise errors.invalid(gettext("Escribe un mensaje o elige una frase."))
    if phrase and phrase not in PHRASES:
        raise errors.invalid(gettext("Esa frase no existe."), "phrase")
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise not_found()
        seat = (
            Seat.objects.filter(table=table, user=user)
            .exclude(user__isnull=True)
            .order_by("index")
            .first()
        )
        if seat is None:
            raise not_found()
        refuse_if_suspended(user)
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        last = (
            Move.objects.filter(hand=hand).order_by("-sequence").only("sequence").first()
            if hand is not None
            else None
        )
        message = TalkMessage.objects.create(
            table=table,
            author=user,
            seat=seat.index,
            text=text,
            phrase=phrase,
            hand_number=hand.number if hand is not None else None,
            after_sequence=last.sequence if last is not None else None,
            after_match=not table.is_active,
            held=selectors.holds_talk(table),
        )
        if not message.held:  # a held one: when its hand ends (notices.subscribers)
            outbox.record(
                TalkPosted(table_id=table.pk, version=table.version, message_ids=[message.pk])
            )
        return message


def talk_mute(*, user, table_id: int, seat: int | None = None) -> TalkMute:
    """``user`` (seated at ``table_id``) mutes that table's talk, or, with ``seat``, the
    person at that seat at every table. Muting again returns the existing mute.

    Raises ``TableError``: ``not_found`` (404: not seated, or no person at ``seat``),
    ``invalid`` (400: one's own seat), ``no_such_seat`` (400: a seat the table does not
    have)."""
    table, _seat = table_selectors.table_for_user(table_id, user)
    if seat is None:
        mute, _created = TalkMute.objects.get_or_create(user=user, table=table)
        return mute
    target = _person_at(table, seat)
    if target.user_id == user.pk:
        raise errors.not_yourself()
    mute, _created = TalkMute.objects.get_or_create(user=user, muted_user_id=target.user_id)
    return mute


def talk_unmute(*, user, mute_id: int) -> str | None:
    """Remove one of ``user``'s mutes; returns the username heard again, or ``None`` for
    a table's talk. Raises ``not_found`` (404) for anyone else's, or none."""
    with transaction.atomic():
        mute = (
            TalkMute.objects.select_for_update(of=("self",))
            .select_related("muted_user")
            .filter(pk=mute_id, user=user)
            .first()
        )
        if mute is None:
            raise errors.not_muted()
        name = mute.muted_user.username if mute.muted_user_id else None
        mute.delete()
        return name


def report_create(
    *,
    reporter,
    table_id: int,
    reason: str,
    message_id: int | None = None,
    seat: int | None = None,
    text: str = "",
) -> Report:
    """``reporter`` (seated at ``table_id``) reports a message they can read there
    (``message_id``) or the person at ``seat``, for ``reason`` (``Report.Reason``) with an
    optional free ``text``, read as a message's (``moderation.text.clean_text``: one with
    nothing a reader can see is no text).

    Raises ``TableError``: ``not_found`` (404: not seated, a message they cannot read, an
    empty seat or a bot), ``invalid`` (400: neither or both of message and seat, oneself;
    a ``text`` the talk would refuse for its characters, length, marks or lines),
    ``no_such_seat`` (400: a seat the table does not have).
    """
    text = clean_text(text)
    if (message_id is None) == (seat is None):
        raise errors.nothing_to_report()
    table, _seat = table_selectors.table_for_user(table_id, user=reporter)
    message = None
    if message_id is not None:
        readable = {m["id"] for m in selectors.talk_for_user(table.pk, reporter)["messages"]}
        if message_id not in readable:
            raise not_found()
        message = TalkMessage.objects.get(pk=message_id)
        reported_id = message.author_id
    else:
        target = _person_at(table, seat)
        reported_id = target.user_id
    if reported_id is None:  # the author deleted their account
        raise not_found()
    if reported_id == reporter.pk:
        raise errors.not_yourself()
    return Report.objects.create(
        reporter=reporter,
        reported_id=reported_id,
        table=table,
        message=message,
        reason=reason,
        text=text,
    )


# --- moderator actions: each with a reason, each one line of the log ---------------------


def protection(moderator, target) -> str | None:
    """Why ``moderator`` may not act on the account ``target`` (a user, or ``None`` for a
    deleted one), in the active language, or ``None`` when they may. Nobody acts on their
    own account, nor on a superuser's; only a superuser acts on a staff member's (another
    moderator's). The acting page says it before the form; the actions refuse with it."""
    if target is None:
        return None
    if target.pk == moderator.pk:
        return gettext("No puedes actuar sobre esta cuenta: es la tuya.")
    if target.is_superuser:
        return gettext("No puedes actuar sobre esta cuenta: es de un superusuario.")
    if target.is_staff and not moderator.is_superuser:
        return gettext(
            "No puedes actuar sobre esta cuenta: es de un miembro del equipo; solo un "
            "superusuario puede."
        )
    return None


def _refuse_if_protected(moderator, kind: str, reason: str, target_id: int | None, **targets):
    """Raise ``protected_account`` (403) when ``moderator`` may not act on the user
    ``target_id`` (``protection``), after writing the try to the moderation log as a
    ``refused`` line (``"<kind>: <reason>"``, with the targets) and to the security log.
    The line is written before the action's own transaction, so the refusal does not
    roll it back."""
    target = get_user_model().objects.filter(pk=target_id).first() if target_id else None
    why = protection(moderator, target)
    if why is None:
        return
    tried = f"{kind}: {(reason or '').strip()}"
    ModerationAction.objects.create(
        moderator=moderator,
        kind=ModerationAction.Kind.REFUSED,
        reason=tried[:MAX_TALK_LENGTH],
        user=target,
        **targets,
    )
    logger.warning(
        "moderation refused: %s (user %s) tried %s on user %s",
        moderator.username,
        moderator.pk,
        kind,
        target.pk,
    )
    raise errors.protected_account(why)


def _log(moderator, kind: str, reason: str, report: Report | None = None, **targets):
    reason = (reason or "").strip()
    if not reason:
        raise errors.invalid(gettext("Indica el motivo."), "reason")
    action = ModerationAction.objects.create(
        moderator=moderator, kind=kind, reason=reason[:MAX_TALK_LENGTH], report=report, **targets
    )
    if report is not None and report.status == Report.Status.OPEN:
        report.status = Report.Status.HANDLED
        report.handled_by = moderator
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])
    return action


def _told(action: ModerationAction) -> ModerationAction:
    """The people ``action`` concerns get an inbox notice of it, with its reason, once
    the action commits (the ``ModerationActed`` event: ``notices.subscribers``)."""
    outbox.record(ModerationActed(table_id=None, version=0, action_id=action.pk))
    return action


def table_close(*, moderator, table_id: int, reason: str, report: Report | None = None):
    """Close a table without a winner (``tables.services.table_close_by_moderator``) and
    log it with ``reason``; its players read "Mesa cerrada por un moderador: <reason>".
    Returns the log line, or ``None`` when the table had already ended (nothing logged)."""
    with transaction.atomic():
        if not table_services.table_close_by_moderator(table_id=table_id):
            return None
        return _told(
            _log(moderator, ModerationAction.Kind.CLOSE_TABLE, reason, report, table_id=table_id)
        )


def message_remove(*, moderator, message_id: int, reason: str, report: Report | None = None):
    """Remove a talk message (its text is no longer shown; the row stays) and log it.
    Raises ``protected_account`` (403) for a message of an account ``moderator`` may not
    act on (``protection``)."""
    author_id, table_id = TalkMessage.objects.values_list("author_id", "table_id").get(
        pk=message_id
    )
    _refuse_if_protected(
        moderator,
        ModerationAction.Kind.REMOVE_MESSAGE,
        reason,
        author_id,
        message_id=message_id,
        table_id=table_id,
        report=report,
    )
    with transaction.atomic():
        message = TalkMessage.objects.select_for_update().get(pk=message_id)
        message.removed_at = timezone.now()
        message.save(update_fields=["removed_at"])
        return _log(
            moderator,
            ModerationAction.Kind.REMOVE_MESSAGE,
            reason,
            report,
            message=message,
            table_id=message.table_id,
            user_id=message.author_id,
        )


def user_warn(*, moderator, user_id: int, reason: str, report: Report | None = None):
    """Warn a player: a log line, and an inbox notice with the reason. Raises
    ``protected_account`` (403) for an account ``moderator`` may not act on."""
    _refuse_if_protected(moderator, ModerationAction.Kind.WARN, reason, user_id, report=report)
    with transaction.atomic():
        return _told(_log(moderator, ModerationAction.Kind.WARN, reason, report, user_id=user_id))


def user_suspend(*, moderator, user_id: int, days: int, reason: str, report: Report | None = None):
    """Suspend a player for ``days`` (1-365) days from now: they cannot create or join a
    table nor talk (403 ``suspended``) but can finish their running tables. Raises
    ``protected_account`` (403) for an account ``moderator`` may not act on, ``invalid``
    (400) for days out of range."""
    _refuse_if_protected(moderator, ModerationAction.Kind.SUSPEND, reason, user_id, report=report)
    if not 1 <= int(days) <= 365:
        raise errors.invalid(gettext("De 1 a 365 días."), "days")
    until = timezone.now() + timedelta(days=int(days))
    with transaction.atomic():
        return _told(
            _log(
                moderator,
                ModerationAction.Kind.SUSPEND,
                reason,
                report,
                user_id=user_id,
                until=until,
            )
        )


def user_deactivate(*, moderator, user_id: int, reason: str, report: Report | None = None):
    """Deactivate a player's account (``is_active = False``: no sign-in, no API token
    accepted) and log it. Raises ``protected_account`` (403) for an account ``moderator``
    may not act on (a superuser's, a staff member's, their own: ``protection``)."""
    _refuse_if_protected(
        moderator, ModerationAction.Kind.DEACTIVATE, reason, user_id, report=report
    )
    with transaction.atomic():
        get_user_model().objects.filter(pk=user_id).update(is_active=False)
        return _log(moderator, ModerationAction.Kind.DEACTIVATE, reason, report, user_id=user_id)


def report_dismiss(*, moderator, report: Report, reason: str):
    """Mark a report handled with no action against anyone, and log why. Raises
    ``protected_account`` (403) for a report about an account ``moderator`` may not act
    on (their own above all: nobody dismisses a report against themselves)."""
    _refuse_if_protected(
        moderator,
        ModerationAction.Kind.DISMISS_REPORT,
        reason,
        report.reported_id,
        report=report,
        table_id=report.table_id,
    )
    with transaction.atomic():
        return _log(
            moderator,
            ModerationAction.Kind.DISMISS_REPORT,
            reason,
            report,
            user_id=report.reported_id,
            table_id=report.table_id,
        )


def hidden_hand_viewed(*, viewer, table: Table) -> HiddenHandView:
    """Write the access log line: ``viewer`` is being shown ``table``'s running hand."""
    hand = Hand.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()
    return HiddenHandView.objects.create(
        viewer=viewer, table=table, hand_number=hand.number if hand else None
    )
