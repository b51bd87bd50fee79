"""Background work at a ``seven_plus_seven`` table (issue 8), where one person holds both
seats of a pair: alice at 0 and 2, bob at 1 and 3.

- Absence (R27): each turn of either hand has its own 48 hours; running out loses the
  pair's match, and the absent person's later move is ``turn_expired``.
- "Your turn" notices go to the person whose hand is to act, naming that hand, never to
  the person who has just moved (their other hand's turn after the rivals pass: they are
  at the table); the reminder goes to the holder of the hand on turn; the match-over
  notice goes once to each person.
"""

import random

import pytest
from django.core import mail

from notices import tasks as notice_tasks
from notices.models import Notification
from tables import services, tasks
from tables.models import Seat, Table
from tests.support.api import play_one, table
from tests.support.clock import H24, H48, MINUTE, T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db


def _alice_and_bob(api_client_for, run_tasks, alice, bob) -> tuple[int, dict, dict]:
    """The started table: ``(table_id, seat -> client, seat -> user)``."""
    first, second = api_client_for(alice), api_client_for(bob)
    created = first.post(
        "/api/v1/tables/",
        {"rules": "seven_plus_seven", "seats": 4, "target": 150, "others": ["friend"]},
        format="json",
    ).json()
    with run_tasks():
        joined = second.post(f"/api/v1/invites/{created['invites'][0]['token']}/join/")
    assert joined.status_code == 200, joined.json()
    return (
        created["id"],
        {0: first, 2: first, 1: second, 3: second},
        {0: alice, 2: alice, 1: bob, 3: bob},
    )


def test_absence_on_either_hand_loses_the_pair(clock, api_client_for, run_tasks, alice, bob):
    table_id, clients, users = _alice_and_bob(api_client_for, run_tasks, alice, bob)
    rng = random.Random(3)
    # Play until one of alice's hands is to act on the second one's turn at least.
    for _ in range(6):
        state = table(clients[0], table_id)
        mover = table(clients[state["turn_seat"]], table_id)
        with run_tasks():
            assert play_one(clients[state["turn_seat"]], mover, rng).status_code == 200
        if fresh(table_id).turn_seat in (0, 2):
            break
    row = fresh(table_id)
    assert row.status == "playing"
    absent = row.turn_seat
    absent_user = users[absent]
    assert row.deadline == T0 + H48  # the clock is stopped: every turn began at T0

    clock.move_to(row.deadline + MINUTE)
    assert tasks.sweep_absences() == 1

    row = fresh(table_id)
    assert (row.status, row.outcome) == ("finished", "absent")
    assert row.winners == ([1, 3] if absent % 2 == 0 else [0, 2])
    assert services.match_of(row).abandoned_by == absent
    late = clients[absent].post(
        f"/api/v1/tables/{table_id}/moves/", {"tile": "6-6", "version": row.version}
    )
    assert (late.status_code, late.json()["code"]) == (409, "turn_expired")
    # The same person's other hand is refused too: the pair has lost.
    other = clients[(absent + 2) % 4].post(
        f"/api/v1/tables/{table_id}/moves/",
        {"tile": "6-6", "version": row.version, "seat": (absent + 2) % 4},
    )
    assert (other.status_code, other.json()["code"]) == (409, "turn_expired")
    assert absent_user in (alice, bob)


def test_turn_notices_go_to_the_hand_on_turn_never_to_who_just_moved(
    api_client_for, run_tasks, alice, bob
):
    table_id, clients, users = _alice_and_bob(api_client_for, run_tasks, alice, bob)
    first_turn = fresh(table_id).turn_seat
    (first,) = Notification.objects.filter(kind="your_turn")
    assert first.recipient == users[first_turn]
    assert first.payload["hand_seat"] == first_turn + 1  # two hands: it names the one to play
    rng = random.Random(11)
    notices = quiet = 0
    for _ in range(120):
        state = table(clients[0], table_id)
        if state["status"] != "playing" or (quiet and notices > 2):
            break
        turn = state["turn_seat"]
        mover = table(clients[turn], table_id)
        last = Notification.objects.order_by("-pk").values_list("pk", flat=True).first()
        with run_tasks():
            assert play_one(clients[turn], mover, rng).status_code == 200
        row = fresh(table_id)
        if row.turn_seat is None or row.status != "playing":
            continue  # the match is over
        new = list(Notification.objects.filter(pk__gt=last, kind="your_turn"))
        if users[row.turn_seat] == users[turn]:
            assert new == [], "no notice to the player who has just moved"
            quiet += 1
        else:
            assert [n.recipient for n in new] == [users[row.turn_seat]]
            assert new[0].payload["hand_seat"] == row.turn_seat + 1
            notices += 1
    assert notices > 0 and quiet > 0  # both cases happened (the rivals passed at least once)


def test_the_reminder_goes_to_the_holder_of_the_hand_on_turn(
    clock, api_client_for, run_tasks, alice, bob
):
    table_id, _clients, users = _alice_and_bob(api_client_for, run_tasks, alice, bob)
    row = fresh(table_id)
    mail.outbox.clear()

    clock.move_to(row.deadline - H24)

    assert notice_tasks.sweep_reminders() == 1
    assert [m.to for m in mail.outbox] == [[users[row.turn_seat].email]]
    assert f"Juega tu mano del asiento {row.turn_seat + 1}." in mail.outbox[0].body


def test_the_match_over_notice_goes_once_to_each_person(
    clock, api_client_for, run_tasks, alice, bob
):
    table_id, clients, _users = _alice_and_bob(api_client_for, run_tasks, alice, bob)
    mail.outbox.clear()
    clock.move_to(T0 + 5 * MINUTE)  # bob, who sat down at T0, is away now

    with run_tasks():
        assert clients[0].post(f"/api/v1/tables/{table_id}/abandon/").status_code == 200

    over = Notification.objects.filter(table_id=table_id, kind="match_over")
    assert sorted(over.values_list("recipient__username", flat=True)) == ["alice", "bob"]
    # alice left from the table (she is there): only bob is mailed, once, names once.
    (message,) = mail.outbox
    assert message.to == [bob.email]
    assert message.body.count("- alice:") == 1 and message.body.count("- bob:") == 1
    assert "Ganadores: bob." in message.body


def test_bots_at_the_rival_seats_never_time_out_and_alice_is_on_the_clock(
    clock, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_create(
            creator=alice, seats=4, target=150, others=["garabato"], rules="seven_plus_seven"
        )
    row = Table.objects.get(pk=table.pk)
    seat = Seat.objects.get(table=row, index=row.turn_seat)
    assert seat.user == alice  # the bots played up to one of alice's hands
    assert row.deadline == T0 + H48
