"""E-mail from notices (notices.email): the "your turn" e-mail waits 15 minutes and goes
only if the turn is still unseen, one e-mail covers every table waiting, at most one per
6 hours; the deadline reminder (R27) always goes; the end of a match is told; nothing goes
to a player who is at the table (presence), or who turned that e-mail off. Plain text and
HTML, the player's language, links from SITE_URL, a one-click unsubscribe (RFC 8058).

Mail goes to Django's locmem outbox; the tasks run inline (``run_tasks``); the clock is
stopped at T0 and moved by hand (time-machine).
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail

from notices import tasks as notice_tasks
from notices.models import NoticePreferences, Notification
from tables.models import Table
from tests.notices.support import html_of, let_time_pass, mails_to
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import H24, H48, MINUTE, T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

AWAY = T0 + timedelta(minutes=5)  # everyone's presence from T0 has run out (120 s)
DELAY = timedelta(seconds=900)


def _link(table_id: int) -> str:
    return f"{settings.SITE_URL}/mesas/{table_id}/"


def _two_people(api_client_for, run_tasks, creator, friend, target=100):
    created = create_table(api_client_for(creator), 2, ["friend"], target=target)
    with run_tasks():
        join(api_client_for(friend), created["invites"][0]["token"])
    return created["id"], {0: api_client_for(creator), 1: api_client_for(friend)}


def _move(clients, table_id, rng, run_tasks):
    """The seat to act reads the table and plays a random legal move."""
    turn = fresh(table_id).turn_seat
    with run_tasks():
        response = play_one(clients[turn], table(clients[turn], table_id), rng)
    assert response.status_code == 200, response.json()


def test_the_turn_email_waits_15_minutes_then_goes_once_in_the_players_language(
    clock, api_client_for, run_tasks, alice, carol
):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, carol)
    users = {0: alice, 1: carol}
    # Both sat down at T0 and saw the table: the first turn is theirs while present.
    first = fresh(table_id).turn_seat
    clock.move_to(AWAY)
    _move(clients, table_id, random.Random(1), run_tasks)
    waiting = users[fresh(table_id).turn_seat]
    assert waiting != users[first]
    with run_tasks():
        clock.move_to(AWAY + DELAY - MINUTE)
        assert notice_tasks.deliver_emails() == 0
        clock.move_to(AWAY + DELAY)
        assert notice_tasks.deliver_emails() == 1
        assert notice_tasks.deliver_emails() == 0  # once
    (message,) = mail.outbox
    assert message.to == [waiting.email]
    assert _link(table_id) in message.body and _link(table_id) in html_of(message)
    assert "6 mar 2030, 09:35 (UTC)" in message.body  # AWAY + 48 h
    unsubscribe = message.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith(f"<{settings.SITE_URL}/avisos/baja/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe[1:-1] in message.body
    if waiting.language == "en":
        assert message.subject == f"Dominó · Your turn at table {table_id}"
        assert "Hi carol," in message.body
        assert f"Table {table_id}: with alice" in message.body
    else:
        assert message.subject == f"Dominó · Te toca jugar en la mesa {table_id}"
        assert "Hola, alice:" in message.body
        assert f"Mesa {table_id}: con carol" in message.body
    notice = Notification.objects.get(recipient=waiting, kind="your_turn")
    assert notice.email == "sent" and notice.channels == ["email"]


def test_a_turn_seen_within_the_delay_is_not_mailed(clock, api_client_for, run_tasks, alice, bob):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    clock.move_to(AWAY)
    _move(clients, table_id, random.Random(2), run_tasks)
    waiting = fresh(table_id).turn_seat
    clock.move_to(AWAY + timedelta(minutes=10))
    table(clients[waiting], table_id)  # opens the table (and is present) before the e-mail
    clock.move_to(AWAY + DELAY + MINUTE)
    with run_tasks():
        assert notice_tasks.deliver_emails() == 0
    assert mail.outbox == []
    notice = Notification.objects.filter(kind="your_turn", table_id=table_id).latest("pk")
    assert notice.read_at is not None


def test_a_turn_that_begins_while_the_players_page_is_open_is_not_mailed(
    clock, api_client_for, run_tasks, alice, bob
):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    clock.move_to(AWAY)
    turn = fresh(table_id).turn_seat
    other = 1 - turn
    table(clients[other], table_id)  # the other player's page polls
    clock.move_to(AWAY + timedelta(seconds=60))
    _move(clients, table_id, random.Random(3), run_tasks)
    assert fresh(table_id).turn_seat == other
    clock.move_to(AWAY + timedelta(seconds=65))
    table(clients[other], table_id)  # and polls again: the turn is on their screen
    let_time_pass(clock, run_tasks, AWAY + timedelta(seconds=65), AWAY + 2 * DELAY)
    assert mail.outbox == []
    notice = Notification.objects.filter(kind="your_turn", table_id=table_id).latest("pk")
    assert notice.email == "skipped" and notice.channels == []


def test_alice_plays_a_whole_match_to_50_against_nino_and_is_mailed_nothing(
    clock, api_client_for, run_tasks, alice
):
    """Issue 15: she read the table before each move (as her page does), so every turn of
    hers began while she was there: inbox rows only, no e-mail (and no push)."""
    client = api_client_for(alice)
    with run_tasks():
        created = create_table(client, 2, ["nino"], target=50)
    rng, now, moves = random.Random(50), T0, 0
    while True:
        state = table(client, created["id"])
        if state["status"] != "playing":
            break
        now += timedelta(seconds=40)  # she thinks a little
        clock.move_to(now)
        with run_tasks():
            assert play_one(client, table(client, created["id"]), rng).status_code == 200
            notice_tasks.deliver_emails()
        moves += 1
    assert moves >= 3  # a whole match: the deals are random, one hand to 50 can be short
    assert fresh(created["id"]).status == Table.Status.FINISHED
    let_time_pass(clock, run_tasks, now, now + 2 * DELAY)
    assert mail.outbox == []
    kinds = set(Notification.objects.filter(recipient=alice).values_list("kind", flat=True))
    assert {"your_turn", "match_over"} <= kinds
    assert not Notification.objects.exclude(channels=[]).exists()


def _table_where_carol_waits(api_client_for, run_tasks, players, rng) -> int:
    """A started table of ``players`` (their creator first) where everyone but carol
    moves, at T0, until it is carol's turn; carol plays her own turns at T0 too."""
    created = create_table(
        api_client_for(players[0]), len(players), ["friend"] * (len(players) - 1)
    )
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    clients = {0: api_client_for(players[0])}
    with run_tasks():
        for seat, user in enumerate(players[1:], start=1):
            clients[seat] = api_client_for(user)
            join(clients[seat], invites[seat])
    return created["id"], clients


def test_carol_away_for_a_day_gets_one_email_naming_both_tables_then_the_reminder(
    clock, api_client_for, run_tasks, alice, bob, carol
):
    """Issue 15: bob moves while carol is away, at a 3-seat table (bob, carol, alice) and
    at a 2-seat one (bob, carol): one e-mail naming both tables, then the reminder 24 h
    before her deadline, nothing more."""
    rng = random.Random(15)
    three, clients3 = _table_where_carol_waits(api_client_for, run_tasks, [bob, carol, alice], rng)
    two, clients2 = _table_where_carol_waits(api_client_for, run_tasks, [bob, carol], rng)
    # At T0, everyone plays until bob is to move at both tables (carol is there too).
    for table_id, clients in ((three, clients3), (two, clients2)):
        for _ in range(12):
            if fresh(table_id).turn_seat == 0:
                break
            _move(clients, table_id, rng, run_tasks)
        assert fresh(table_id).turn_seat == 0
    mail.outbox.clear()
    # An hour later carol is away (for a day); bob moves at both tables.
    bob_moves = T0 + timedelta(hours=1)
    clock.move_to(bob_moves)
    for table_id, clients in ((three, clients3), (two, clients2)):
        _move(clients, table_id, rng, run_tasks)
        assert fresh(table_id).turn_seat == 1, "carol is next after bob"
    deadline = fresh(three).deadline
    assert deadline == bob_moves + H48 == fresh(two).deadline
    let_time_pass(clock, run_tasks, bob_moves, deadline - MINUTE, step=timedelta(minutes=15))

    turns, reminder = mails_to(carol)
    assert turns.subject == "Dominó · Your turn at 2 tables"
    for table_id in (three, two):
        assert _link(table_id) in turns.body
        assert f"Table {table_id}" in turns.body
    assert f"Table {three}: with alice and bob" in turns.body  # play order after carol
    assert f"Table {two}: with bob" in turns.body
    assert turns.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert reminder.subject == "Dominó · Less than 24 hours left for your turn at 2 tables"
    for table_id in (three, two):
        assert _link(table_id) in reminder.body
    assert "6 Mar 2030, 10:30 (UTC)" in reminder.body  # the deadline
    # When each went out: 15 minutes after bob's moves, then 24 h before the deadline.
    sent = Notification.objects.filter(recipient=carol, email="sent")
    assert sorted((n.kind, n.table_id) for n in sent) == sorted(
        [("your_turn", three), ("your_turn", two), ("reminder", three), ("reminder", two)]
    )


def test_at_most_one_turn_email_per_six_hours(clock, api_client_for, run_tasks, alice, bob):
    """Alternate moves every 45 minutes for 13 hours: each player is away whenever the
    other moves, yet gets a "your turn" e-mail at most once in 6 hours."""
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    rng, now, sent = random.Random(6), AWAY, []
    while now < AWAY + timedelta(hours=13) and fresh(table_id).status == "playing":
        _move_at(clock, now, clients, table_id, rng, run_tasks)
        for step in range(1, 9):  # the beat, every 5 minutes until the next move
            clock.move_to(now + step * timedelta(minutes=5))
            before = len(mail.outbox)
            notice_tasks.deliver_emails()
            sent += [(m.to[0], now + step * timedelta(minutes=5)) for m in mail.outbox[before:]]
        now += timedelta(minutes=45)
    for user in (alice, bob):
        times = [when for to, when in sent if to == user.email]
        assert 1 <= len(times) <= 3, times
        assert all(b - a >= timedelta(hours=6) for a, b in zip(times, times[1:], strict=False))
    assert len(sent) >= 3


def _move_at(clock, now, clients, table_id, rng, run_tasks) -> None:
    clock.move_to(now)
    _move(clients, table_id, rng, run_tasks)


def test_the_reminder_goes_once_when_24_hours_are_left(
    clock, api_client_for, run_tasks, alice, bob
):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    users = {0: alice, 1: bob}
    row = fresh(table_id)
    mover = users[row.turn_seat]
    mail.outbox.clear()

    clock.move_to(T0 + H24 - MINUTE)  # 24 h 01 min left
    assert notice_tasks.sweep_reminders() == 0
    assert mail.outbox == []

    clock.move_to(T0 + H24)  # exactly 24 h left
    assert notice_tasks.sweep_reminders() == 1
    (message,) = mail.outbox
    assert message.to == [mover.email]
    assert (
        message.subject == f"Dominó · Quedan menos de 24 horas para tu turno en la mesa {table_id}"
    )
    assert _link(table_id) in message.body
    assert "6 mar 2030, 09:30 (UTC)" in message.body
    assert fresh(table_id).reminded_version == row.version

    for minutes in (5, 60, 23 * 60):
        clock.move_to(T0 + H24 + timedelta(minutes=minutes))
        assert notice_tasks.sweep_reminders() == 0
        assert notice_tasks.deliver_emails() == 0
    assert len(mail.outbox) == 1


def test_the_reminder_goes_even_while_the_player_is_at_the_table_and_in_quiet_hours(
    clock, api_client_for, run_tasks, carol
):
    with run_tasks():
        created = create_table(api_client_for(carol), 2, ["garabato"])
    NoticePreferences.objects.update_or_create(
        user=carol, defaults={"quiet_start": "00:00", "quiet_end": "23:59"}
    )
    mail.outbox.clear()
    row = fresh(created["id"])
    clock.move_to(row.deadline - H24 + MINUTE)
    table(api_client_for(carol), created["id"])
    assert notice_tasks.sweep_reminders() == 1
    (message,) = mail.outbox
    assert (
        message.subject
        == f"Dominó · Less than 24 hours left for your turn at table {created['id']}"
    )
    assert "6 Mar 2030, 09:30 (UTC)" in message.body


def test_nobody_who_turned_emails_off_is_mailed(clock, api_client_for, run_tasks, alice, dave):
    table_id, clients = _two_people(api_client_for, run_tasks, alice, dave)
    rng = random.Random(2)
    now = AWAY
    for _ in range(4):
        clock.move_to(now)
        _move(clients, table_id, rng, run_tasks)
        let_time_pass(clock, run_tasks, now, now + DELAY + MINUTE)
        now += timedelta(hours=7)
    assert mails_to(dave) == []
    assert mails_to(alice)  # alice keeps hers
    let_time_pass(clock, run_tasks, now, now + H48 + H48, step=timedelta(hours=1))
    assert fresh(table_id).status == Table.Status.FINISHED
    assert mails_to(dave) == []


def test_a_retried_delivery_never_sends_twice_and_a_lost_connection_is_retried(
    clock, api_client_for, run_tasks, alice, bob, monkeypatch
):
    from django.core.mail import EmailMultiAlternatives

    table_id, clients = _two_people(api_client_for, run_tasks, alice, bob)
    clock.move_to(AWAY)
    _move(clients, table_id, random.Random(4), run_tasks)
    clock.move_to(AWAY + DELAY)
    real_send = EmailMultiAlternatives.send

    def lost(self, *args, **kwargs):
        raise ConnectionRefusedError("smtp is away")

    monkeypatch.setattr(EmailMultiAlternatives, "send", lost)
    from notices import email

    waiting = Notification.objects.get(kind="your_turn", email="pending", read_at=None)
    with pytest.raises(ConnectionRefusedError):
        email.deliver(waiting.recipient_id)
    waiting.refresh_from_db()
    assert waiting.email == "pending"  # the claim is put back for the retry
    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    assert email.deliver(waiting.recipient_id) == 1
    assert email.deliver(waiting.recipient_id) == 0
    assert notice_tasks.deliver_emails() == 0
    assert len(mail.outbox) == 1
