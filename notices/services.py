"""Every write of a notice goes through here: writing the rows for what happened at a
table, marking them read, recording presence, and the e-mail channel's claims.

The table services never call these: they record events (``tables.events``), this app's
subscribers (``notices.subscribers``) queue a task (``notices.tasks``) once the write
commits, and the task calls one of the ``record_*`` functions below, which re-read the
table. A read of a table is
recorded by ``notices.table_reads`` once its answer has gone.

A notice's payload holds public facts only (table, seat names, scores, what happened),
never a tile (R31).
"""

from __future__ import annotations

import hmac
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import CharField, Exists, F, Q
from django.db.models.functions import Cast
from django.utils import timezone

from accounts.selectors import verified_email
from dominoes import match_from_dict
from notices import presence
from notices.models import NoticePreferences, Notification, PushSubscription
from notices.presence import arrived, is_present  # noqa: F401  (callers use them from here)
from tables import naming
from tables.models import Hand, Seat, Table
from tables.seating import holds_two_hands, player_name

logger = logging.getLogger(__name__)

Kind = Notification.Kind
Email = Notification.Email


# --- presence (notices.presence) and reads ----------------------------------------------


def notice_seen(notice: Notification) -> bool:
    """Whether ``notice``'s recipient has seen what it tells since it happened, so that its
    e-mail or push is not needed: it was read, or they read the table at or after that
    turn's version (``your_turn``: its ``key``) or the final one (``match_over``; the
    table page and the API's table answer keep ``Seat.seen_version``), or a client of
    theirs read the table once the notice was written (``presence.seen_since``). A look
    before that, however recent, does not count. The reminder (R27) is never seen this
    way: it always goes. One query for a turn or a match's end, none otherwise."""
    if notice.kind == Kind.REMINDER:
        return False
    if notice.read_at is not None:
        return True
    version = None
    if notice.kind == Kind.YOUR_TURN and notice.key.isdigit():
        version = int(notice.key)
    elif notice.kind == Kind.MATCH_OVER:
        version = notice.table.version
    if version:  # (a table at version 0 was never read at any version)
        mine = Seat.objects.filter(table_id=notice.table_id, user_id=notice.recipient_id)
        if mine.filter(seen_version__gte=version).exists():
            return True
    return presence.seen_since(notice.recipient_id, notice.table_id, notice.created_at)


def present_until(notice: Notification, now: datetime) -> datetime | None:
    """When ``notice``'s recipient stops counting as at its table (``PRESENCE_SECONDS``
    after their last read), or ``None`` when they are not there at ``now``, or for a
    reminder (which ignores presence). While they are there an e-mail or push waits: their
    page will show it, or they leave and it goes."""
    if notice.kind == Kind.REMINDER or notice.table_id is None:
        return None
    return presence.present_until(notice.recipient_id, notice.table_id, now)


def unread_at_table(user, table_id) -> Exists:
    """An ``Exists`` expression: ``user`` has unread notices of table ``table_id`` (a
    value or an ``OuterRef``), for a reader to fetch in the query that loads the table
    (``tables.services.locking``)."""
    rows = Notification.objects.filter(recipient=user, table_id=table_id, read_at__isnull=True)
    return Exists(rows)


def notifications_read(*, user, ids: list[int] | None = None, table_id: int | None = None) -> int:
    """Mark ``user``'s unread notices read: those with the given ``ids``, or those of
    table ``table_id``, or (neither given) all. Another person's ids are ignored. Returns
    how many changed."""
    rows = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
        if not rows.exists():  # a poll of a table with nothing unread writes nothing
            return 0
    return rows.update(read_at=timezone.now())


# --- preferences --------------------------------------------------------------------------


def preferences_for(user) -> NoticePreferences:
    """``user``'s notice preferences, created with the defaults on first use."""
    preferences, _created = NoticePreferences.objects.get_or_create(user=user)
    return preferences


def email_switch(*, user, on: bool) -> None:
    """Turn all of ``user``'s notice e-mail on or off (``User.email_notifications``; each
    kind's own switch stays as it is). The settings page's "Avisos" section saves it."""
    if user.email_notifications != on:
        user.email_notifications = on
        user.save(update_fields=["email_notifications"])


def preferences_update(*, user, changes: dict) -> NoticePreferences:
    """Set the preferences in ``changes`` (``NoticePreferences`` field name -> validated
    value: the settings form, the API, the unsubscribe link) and nothing else; a
    ``time_zone`` given is a chosen one (``time_zone_chosen``). Raises
    ``ValueError`` for a field that is not a player's to set."""
    editable = {f.name for f in NoticePreferences._meta.fields if f.editable} - {"id", "user"}
    unknown = set(changes) - editable
    if unknown:
        raise ValueError(sorted(unknown))
    preferences = preferences_for(user)
    for field, value in changes.items():
        setattr(preferences, field, value)
    fields = list(changes)
    if "time_zone" in changes:
        preferences.time_zone_chosen = True
        fields.append("time_zone_chosen")
    if fields:
        preferences.save(update_fields=fields)
    return preferences


def wants_email(user, kind: str) -> bool:
    """Whether ``user`` may get e-mail about ``kind``: an active person with e-mails on
    (``User.email_notifications``), a verified address (never a stranger's
    inbox) and that kind's switch on."""
    if not (user and user.is_active and user.email_notifications and verified_email(user)):
        return False
    return preferences_for(user).wants("email", kind)


# --- writing notices ----------------------------------------------------------------------


def seats_of(table: Table) -> list[Seat]:
    """``table``'s seats in order, with their users."""
    return list(Seat.objects.filter(table=table).select_related("user").order_by("index"))


def once(items) -> list:
    """``items`` without repeats, in order (a two-seat player's name appears once)."""
    return list(dict.fromkeys(items))


def seat_name(table: Table, seats: list[Seat], seat: Seat) -> str:
    """``seat``'s player as every page names it ("Nino II" for a second Nino)."""
    return player_name(seat, seats, table.rules)


def public_facts(table: Table, seats: list[Seat]) -> dict:
    """The public facts every notice carries: the table, its seat names and scores."""
    return {
        "table": table.pk,
        "seats": table.seats,
        "target": table.target,
        "players": [seat_name(table, seats, seat) for seat in seats],
        "scores": [seat.score for seat in seats],
    }


def _company(table: Table, seats: list[Seat], user_id: int) -> dict:
    """Who else plays at ``table`` as ``user_id`` reads it, for a notice's payload:
    ``{"others": [rival names], "partner": name or None}``, the rivals in play order after
    the user's first seat (R3), as "Mis mesas" names them (``tables.naming``), each once; a
    seat nobody holds is left out. ``partner`` is null without pairs (R2), and for the
    person holding both hands of a pair (``seven_plus_seven``)."""
    players = [
        {"seat": s.index, "team": s.team, "name": None if s.is_open else seat_name(table, seats, s)}
        for s in seats
    ]
    mine = [s.index for s in seats if s.user_id == user_id]
    partners, rivals = naming.partners_and_rivals(players, mine)
    partner = next((p["name"] for p in partners if p["name"]), None)
    return {"others": once(p["name"] for p in rivals if p["name"]), "partner": partner}


def _people(seats: list[Seat]) -> list:
    """The humans seated, once each (a two-hand player holds two seats)."""
    people = {}
    for seat in seats:
        if seat.user_id is not None and not seat.bot:
            people.setdefault(seat.user_id, seat.user)
    return list(people.values())


def _write(
    recipient, kind: str, table: Table, key: str, payload: dict, *, email_due_at=None
) -> Notification | None:
    """Write one notice, at most once per ``(recipient, table, kind, key)``; ``None`` when
    it was already written (a retried task). With ``email_due_at`` the e-mail channel is
    pending until then, when the player wants that e-mail; a player at the table now
    makes it due no sooner than they stop counting as there (the reminder excepted).
    Whether they saw it is decided when it is due (``notices.email``)."""
    email = ""
    if email_due_at is not None and wants_email(recipient, kind):
        email = Email.PENDING
        there = kind != Kind.REMINDER and presence.present_until(recipient.pk, table.pk)
        if there and there > email_due_at:
            email_due_at = there
    try:
        with transaction.atomic():
            return Notification.objects.create(
                recipient=recipient,
                kind=kind,
                table=table,
                key=key,
                payload=payload,
                email=email,
                email_due_at=email_due_at if email == Email.PENDING else None,
            )
    except IntegrityError:
        return None


def _turn_on(table_id: int, version: int) -> tuple[Table, Seat, dict] | None:
    """The table still at ``version`` with a person to act: ``(table, their seat, the
    turn's public facts)``; ``None`` when the table moved on or a bot is to act."""
    table = Table.objects.filter(pk=table_id, version=version, status="playing").first()
    if table is None or table.turn_seat is None:
        return None
    seats = seats_of(table)
    seat = seats[table.turn_seat]
    if seat.bot or seat.user_id is None:
        return None
    payload = public_facts(table, seats) | {
        **_company(table, seats, seat.user_id),
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "hand_seat": seat.index + 1 if holds_two_hands(table.rules) else None,
    }
    return table, seat, payload


def record_turn(*, table_id: int, version: int, now: datetime | None = None) -> Notification | None:
    """The turn of a human seat began at ``table_id`` (still at ``version``): write their
    ``your_turn`` notice, its e-mail due ``TURN_EMAIL_DELAY_SECONDS`` later. The player's
    earlier "your turn" notices of that table, read or not, are replaced (one per table in
    the inbox: at a table with fast bots the turn comes back every few seconds), but for
    those an e-mail or a push is being sent or went out for (the record of what was sent).
    ``None`` when the table moved on, the seat is a bot's, or it was written."""
    now = now or timezone.now()
    turn = _turn_on(table_id, version)
    if turn is None:
        return None
    table, seat, payload = turn
    with transaction.atomic():
        Notification.objects.filter(
            recipient_id=seat.user_id,
            table=table,
            kind=Kind.YOUR_TURN,
            email__in=[Email.NONE, Email.PENDING, Email.SKIPPED],
        ).exclude(key=str(version)).exclude(push__in=[Email.SENDING, Email.SENT]).delete()
        # those kept (an e-mail or push under way or gone out) are no longer unread
        Notification.objects.filter(
            recipient_id=seat.user_id, table=table, kind=Kind.YOUR_TURN, read_at__isnull=True
        ).exclude(key=str(version)).update(read_at=now)
        due = now + timedelta(seconds=settings.TURN_EMAIL_DELAY_SECONDS)
        return _write(seat.user, Kind.YOUR_TURN, table, str(version), payload, email_due_at=due)


def record_reminder(
    *, table_id: int, version: int, now: datetime | None = None
) -> Notification | None:
    """The deadline of the turn at ``table_id`` (still at ``version``) is
    ``REMINDER_SECONDS`` away (R27): write the ``reminder`` notice, its e-mail due now
    (presence and quiet hours do not hold it). ``None`` when the table moved on, the
    seat is a bot's, or it was written already."""
    turn = _turn_on(table_id, version)
    if turn is None:
        return None
    table, seat, payload = turn
    when = now or timezone.now()
    return _write(seat.user, Kind.REMINDER, table, str(version), payload, email_due_at=when)


def record_match_over(
    *, table_id: int, now: datetime | None = None, closed_by: int | None = None
) -> list[Notification]:
    """The match at ``table_id`` ended (target, abandonment, absence, idle, moderator):
    one ``match_over`` notice per person seated, with why, the winners and the scores,
    its e-mail due now. ``closed_by``: the seat whose player cancelled the table before
    its match began (its creator, or a person offered a rematch: ``table_abandon``),
    named in ``left``; that person gets no notice. Returns the notices written here."""
    now = now or timezone.now()
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.is_active:
        return []
    seats = seats_of(table)
    winners = table.winners or []
    left = match_from_dict(table.state).abandoned_by if table.state is not None else closed_by
    base = public_facts(table, seats) | {
        "outcome": table.outcome,
        "started": table.state is not None,
        "winners": once(seat_name(table, seats, seats[i]) for i in winners if i < len(seats)),
        "left": seat_name(table, seats, seats[left]) if left is not None else "",
    }
    written = []
    for person in _people(seats):
        if closed_by is not None and table.state is None and seats[closed_by].user_id == person.pk:
            continue  # they cancelled it themselves
        won = any(s.user_id == person.pk and s.index in winners for s in seats)
        payload = base | {"won": won} | _company(table, seats, person.pk)
        notice = _write(person, Kind.MATCH_OVER, table, "", payload, email_due_at=now)
        if notice is not None:
            written.append(notice)
    return written


def record_hand_over(*, table_id: int, hand_number: int) -> list[Notification]:
    """Hand ``hand_number`` (0-based) of ``table_id`` ended and the match goes on: each
    person seated has one ``hand_over`` notice per table, updated to this hand (inbox
    only; no e-mail), with how it ended, its winners and points, and whether that person
    was one of them (``won``: said to them in the second person). Returns the notices
    written or updated here (none for a hand told already: a retried task)."""
    hand = Hand.objects.filter(table_id=table_id, number=hand_number).select_related("table")
    hand = hand.filter(ended_at__isnull=False).first()
    if hand is None:
        return []
    table = hand.table
    seats = seats_of(table)
    payload = public_facts(table, seats) | {
        "hand": hand.number + 1,
        "end": hand.end,
        "winners": once(
            seat_name(table, seats, seats[i]) for i in (hand.winners or []) if i < len(seats)
        ),
        "points": hand.points,
    }
    written = []
    for person in _people(seats):
        won = any(s.user_id == person.pk and s.index in (hand.winners or []) for s in seats)
        notice = _hand_told(person, table, payload | {"won": won})
        if notice is not None:
            written.append(notice)
    return written


def _hand_told(person, table: Table, payload: dict) -> Notification | None:
    """Fold the end of hand ``payload["hand"]`` into ``person``'s one ``hand_over`` row of
    ``table`` (locked; written when there is none): it now tells the newest hand, unread
    and newest in the inbox again, with the hands it told (``hands``, so a retried task
    tells none twice) and how many ended since it was last read (``count``). ``None``
    when that hand was told already."""
    rows = Notification.objects.filter(recipient=person, table=table, kind=Kind.HAND_OVER)
    with transaction.atomic():
        row = rows.select_for_update().order_by("-created_at", "-pk").first()
        if row is None:
            try:
                with transaction.atomic():
                    return Notification.objects.create(
                        recipient=person,
                        kind=Kind.HAND_OVER,
                        table=table,
                        key="",
                        payload=payload | {"hands": [payload["hand"]], "count": 1},
                    )
            except IntegrityError:  # another task wrote it first: fold into that one
                row = rows.select_for_update().get(key="")
        told = row.payload.get("hands") or [row.payload.get("hand")]
        if payload["hand"] in told:
            return None
        count = 1 if row.read_at is not None else row.payload.get("count", 1) + 1
        row.payload = payload | {"hands": sorted([*told, payload["hand"]]), "count": count}
        row.read_at = None
        row.created_at = timezone.now()
        row.save(update_fields=["payload", "read_at", "created_at"])
        return row


def record_rematch_offered(*, table_id: int, now: datetime | None = None) -> list[Notification]:
    """The rematch at waiting table ``table_id`` offers a seat to each person who has not
    accepted it yet (``tables.services.rematch``): one ``rematch_offered`` notice each,
    once, with who asked (``by``, the rematch's creator), the finished table
    (``rematch_of``) and the public facts, its e-mail due now. Returns the notices written
    here (none once the offer has ended: started, declined or closed)."""
    now = now or timezone.now()
    table = Table.objects.filter(pk=table_id, status=Table.Status.WAITING).first()
    if table is None or table.rematch_of_id is None:
        return []
    seats = seats_of(table)
    asker = next((s for s in seats if s.user_id and s.user_id == table.creator_id), None)
    base = public_facts(table, seats) | {
        "by": seat_name(table, seats, asker) if asker is not None else "",
        "rematch_of": table.rematch_of_id,
    }
    written = []
    for person in _people([seat for seat in seats if seat.joined_at is None]):
        payload = base | _company(table, seats, person.pk)
        notice = _write(person, Kind.REMATCH_OFFERED, table, "", payload, email_due_at=now)
        if notice is not None:
            written.append(notice)
    return written


# --- Web Push subscriptions ---------------------------------------------------------------


class SubscriptionTaken(Exception):
    """The push endpoint is another account's device, and the keys sent are not its."""


def push_subscribe(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Record ``user``'s device: one row per push ``endpoint`` (already checked:
    ``notices.push_endpoints``). The owner subscribing again replaces the keys. Another
    account gets the row only by sending its ``auth`` secret (the same browser, signed in
    as someone else now, sends the same keys); else ``SubscriptionTaken`` and the row stays
    its owner's. Safe against two subscriptions of one endpoint at once (the unique
    column, and the row lock)."""
    try:
        return _subscribe_once(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    except IntegrityError:  # the same endpoint was inserted meanwhile: now a row to check
        return _subscribe_once(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)


def _subscribe_once(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    with transaction.atomic():
        subscription = (
            PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        )
        if subscription is None:
            subscription = PushSubscription(endpoint=endpoint)
        elif subscription.user_id != user.pk and not hmac.compare_digest(
            subscription.auth.encode(), auth.encode()
        ):
            raise SubscriptionTaken(endpoint)
        subscription.user = user
        subscription.p256dh = p256dh
        subscription.auth = auth
        subscription.created_at = timezone.now()
        subscription.save()
    return subscription


def push_unsubscribe(*, endpoint: str, user=None) -> int:
    """Forget the device at ``endpoint`` (only ``user``'s, when given: the API). Returns
    how many rows were deleted (0 or 1)."""
    rows = PushSubscription.objects.filter(endpoint=endpoint)
    if user is not None:
        rows = rows.filter(user=user)
    deleted, _by_model = rows.delete()
    return deleted


def push_accepted(notice_id: int, now: datetime) -> None:
    """A push service took notice ``notice_id``'s push (its first device): written before
    the rest, so a claim left ``sending`` is known to have gone (``pushes_reclaim``)."""
    Notification.objects.filter(pk=notice_id).update(push_accepted_at=now)


def pushes_reclaim(now: datetime, batch: int = 200) -> list[int]:
    """The pushes left ``sending`` longer than ``DELIVERY_LEASE_SECONDS`` (a process died
    or lost its database mid-send), at most ``batch``: one a push service took
    (``push_accepted_at``) is ``sent``, never pushed again; any other is pending again.
    Returns the ids of those pending again, for the caller to push."""
    since = now - timedelta(seconds=settings.DELIVERY_LEASE_SECONDS)
    stuck = Notification.objects.filter(push=Email.SENDING).filter(
        Q(push_claimed_at__lt=since) | Q(push_claimed_at__isnull=True)
    )
    rows = list(stuck.order_by("push_claimed_at").values_list("pk", "push_accepted_at")[:batch])
    taken = [pk for pk, accepted in rows if accepted is not None]
    again = [pk for pk, accepted in rows if accepted is None]
    Notification.objects.filter(pk__in=taken, push=Email.SENDING).update(push=Email.SENT)
    Notification.objects.filter(pk__in=again, push=Email.SENDING).update(push=Email.PENDING)
    return again


def stale_turns_read(now: datetime, batch: int = 500) -> int:
    """Mark read the unread ``your_turn`` notices whose turn is over (the table moved on
    from that version, or is no longer playing), at most ``batch``: the inbox keeps only
    the current "Te toca" of each table unread. Returns how many."""
    rows = (
        Notification.objects.filter(kind=Kind.YOUR_TURN, read_at__isnull=True)
        .annotate(on=Cast("table__version", CharField()))
        .exclude(table__status=Table.Status.PLAYING, key=F("on"))
    )
    ids = list(rows.values_list("pk", flat=True)[:batch])
    return Notification.objects.filter(pk__in=ids).update(read_at=now)


def push_delivered(*, subscription_id: int, now: datetime) -> None:
    """The push service took a push for this device at ``now``."""
    PushSubscription.objects.filter(pk=subscription_id).update(last_push_at=now)
