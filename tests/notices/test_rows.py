"""A notice is a row (issue 15): what happened at a table is written as ``Notification``
rows by the tasks the table services queue by name once a write commits, one per person
and event (a retried task writes nothing twice), with public facts only: never a tile."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest

from notices import selectors, services
from notices import tasks as notice_tasks
from notices.models import Notification
from tables import services as table_services
from tables import tasks
from tables.models import Hand, Table
from tests.support.api import create_table, join, play_one, play_until, table
from tests.support.clock import T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

TILE = re.compile(r"\b[0-6]-[0-6]\b")


def _kinds(user) -> list[str]:
    return list(
        Notification.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True)
    )


def test_a_friend_sitting_down_and_the_start_are_told_to_the_others(
    clock, api_client_for, run_tasks, alice, bob, carol
):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    with run_tasks():
        join(api_client_for(bob), invites[1])
    assert _kinds(alice) == ["friend_joined"]
    assert _kinds(bob) == []  # who sat down is at the table
    with run_tasks():
        join(api_client_for(carol), invites[2])
    notices = Notification.objects.filter(recipient=alice).exclude(kind="your_turn").order_by("pk")
    assert [n.kind for n in notices] == ["friend_joined", "friend_joined", "table_started"]
    assert notices[1].payload["joined"] == "carol"
    assert notices[2].payload["players"] == ["alice", "bob", "carol"]
    assert notices[2].payload["others"] == ["bob", "carol"]
    started = f"Empezó la partida de la mesa {notices[2].table_id}: con bob y carol"
    assert selectors.describe(notices[2]) == started
    assert "friend_joined" in _kinds(bob) and "table_started" in _kinds(bob)
    assert "table_started" not in _kinds(carol)


def test_a_whole_match_writes_turns_hands_and_its_end_and_never_a_tile(
    clock, api_client_for, run_tasks, alice, bob
):
    created = create_table(api_client_for(alice), 2, ["friend"], target=50)
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    rng = random.Random(7)

    def playing(state):
        return state["status"] != "playing"

    with run_tasks():
        play_until(clients, created["id"], rng, playing)
    row = fresh(created["id"])
    assert row.status == Table.Status.FINISHED and row.outcome == Table.Outcome.TARGET
    hands = Hand.objects.filter(table=row).count()
    for user in (alice, bob):
        kinds = _kinds(user)
        assert kinds.count("match_over") == 1
        # the hands' ends are one notice per table, telling the newest (the last hand's
        # end is the match's)
        assert kinds.count("hand_over") == min(hands - 1, 1)
        # Earlier "your turn" notices of a table are replaced, read (they played at the
        # table, so each was read) or not: one at most in the inbox. (No e-mail or push
        # went out here: none is kept as a record.)
        turns = Notification.objects.filter(recipient=user, kind="your_turn")
        assert turns.count() <= 1, list(turns.values_list("key", "read_at"))
    over = Notification.objects.get(recipient=alice, kind="match_over")
    assert over.payload["outcome"] == "target"
    assert over.payload["won"] == (0 in row.winners)
    assert over.payload["scores"] == [seat.score for seat in row.seat_set.order_by("index")]
    every = json.dumps(list(Notification.objects.values_list("payload", flat=True)))
    assert not TILE.search(every), "a notice carries a tile"
    assert '"tile' not in every and '"hand": [' not in every


@pytest.mark.parametrize(
    ("how", "outcome"),
    [("abandon", "abandoned"), ("absence", "absent"), ("idle", "idle"), ("moderator", "moderator")],
)
def test_the_match_over_notice_says_why(clock, api_client_for, run_tasks, alice, bob, how, outcome):
    created = create_table(api_client_for(alice), 2, ["friend"])
    table_id = created["id"]
    if how != "idle":
        with run_tasks():
            join(api_client_for(bob), created["invites"][0]["token"])
    with run_tasks():
        if how == "abandon":
            api_client_for(bob).post(f"/api/v1/tables/{table_id}/abandon/")
        elif how == "absence":
            clock.move_to(T0 + timedelta(days=2, minutes=1))
            tasks.sweep_absences()
        elif how == "idle":
            clock.move_to(T0 + timedelta(days=7, minutes=1))
            tasks.sweep_idle()
        else:
            table_services.table_close_by_moderator(table_id=table_id)
    notice = Notification.objects.get(recipient=alice, kind="match_over")
    assert notice.payload["outcome"] == outcome
    assert fresh(table_id).outcome == outcome


def test_a_retried_task_writes_no_notice_twice(clock, api_client_for, run_tasks, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    row = fresh(created["id"])
    before = Notification.objects.count()
    assert notice_tasks.record_turn(row.pk, row.version) is False  # already written
    assert notice_tasks.record_seat_taken(row.pk, bob.pk) == 0
    table_services.table_close_by_moderator(table_id=row.pk)
    assert notice_tasks.record_match_over(row.pk) == 2
    assert notice_tasks.record_match_over(row.pk) == 0
    assert Notification.objects.count() == before + 2


def test_reading_a_table_marks_its_notices_read_and_records_presence(
    clock, api_client_for, run_tasks, alice, bob
):
    created = create_table(api_client_for(alice), 2, ["friend"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    clock.move_to(T0 + timedelta(minutes=5))
    assert not services.is_present(alice.pk, created["id"])
    unread = Notification.objects.filter(recipient=alice, read_at__isnull=True)
    assert unread.exists()
    table(api_client_for(alice), created["id"])
    assert not unread.exists()
    assert services.is_present(alice.pk, created["id"])
    clock.move_to(T0 + timedelta(minutes=7, seconds=1))
    assert not services.is_present(alice.pk, created["id"])


def test_a_turn_notice_names_the_rivals_not_the_partner(
    clock, api_client_for, run_tasks, alice, bob
):
    """At four seats bob plays with alice (seat 2, R2): the notices name the rivals to
    both, in play order after each, and the partner apart: never alice as bob's rival."""
    created = create_table(api_client_for(alice), 4, ["nino", "friend", "garabato"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    table_row = Table.objects.get(pk=created["id"])
    seats = services.seats_of(table_row)
    assert seats[2].user == bob

    company = {user.username: services._company(table_row, seats, user.pk) for user in (alice, bob)}

    assert company == {
        "alice": {"others": ["Nino", "Garabato"], "partner": "bob"},
        "bob": {"others": ["Garabato", "Nino"], "partner": "alice"},
    }


def test_at_a_fast_bot_table_the_inbox_keeps_one_your_turn_row(api_client_for, run_tasks, alice):
    """alice plays against Nino, who answers at once: her turn comes back after every move
    and each turn writes its notice; the earlier ones, read as she played or not, go (no
    e-mail or push was sent for them), so her inbox holds one "your turn" for the table."""
    client = api_client_for(alice)
    rng = random.Random(5)
    with run_tasks():  # the bot's first move, if it leads, runs as the block ends
        created = create_table(client, 2, ["nino"], target=100)
    for _ in range(6):
        state = table(client, created["id"])
        if state["status"] != "playing" or not state["your_turn"]:
            break
        with run_tasks():  # her move, then Nino's, then her next turn's notice
            assert play_one(client, state, rng).status_code == 200
    turns = Notification.objects.filter(recipient=alice, kind="your_turn", table=created["id"])
    written = Notification.objects.filter(recipient=alice, kind="your_turn").count()
    assert turns.count() == 1, list(turns.values_list("key", "read_at"))
    assert written == 1


def test_a_hand_won_by_a_pair_is_told_in_the_plural():
    """'demo y Nino se anotan 15', not 'se anota' (the last look); one winner keeps the
    singular, and English says 'score' and 'scores' likewise. 'Se anota' rather than
    'suma': beside a blocked hand's counts, 'suman 35' read as the pair's count."""
    from django.utils import translation

    def sentence(winners: list[str]) -> str:
        notice = Notification(
            kind=Notification.Kind.HAND_OVER,
            payload={"hand": 1, "winners": winners, "points": 15},
            table_id=7,
        )
        return selectors.describe(notice)

    assert sentence(["alice", "Nino"]) == (
        "Terminó la mano 1 de la mesa 7: alice y Nino se anotan 15 puntos"
    )
    assert sentence(["alice"]) == "Terminó la mano 1 de la mesa 7: alice se anota 15 puntos"
    with translation.override("en"):
        assert sentence(["alice", "Nino"]).endswith("alice and Nino score 15 points")
        assert sentence(["alice"]).endswith("alice scores 15 points")


def test_a_hand_worth_one_point_says_punto():
    """'alice se anota 1 punto', not '1 puntos', by one winner and by a pair alike;
    English says '1 point'."""
    from django.utils import translation

    def sentence(winners: list[str], points: int) -> str:
        notice = Notification(
            kind=Notification.Kind.HAND_OVER,
            payload={"hand": 2, "winners": winners, "points": points},
            table_id=7,
        )
        return selectors.describe(notice)

    assert sentence(["alice"], 1).endswith(": alice se anota 1 punto")
    assert sentence(["alice", "Nino"], 1).endswith(": alice y Nino se anotan 1 punto")
    assert sentence(["alice"], 2).endswith(": alice se anota 2 puntos")
    with translation.override("en"):
        assert sentence(["alice"], 1).endswith(": alice scores 1 point")
        assert sentence(["alice", "Nino"], 1).endswith(": alice and Nino score 1 point")
        assert sentence(["alice", "Nino"], 2).endswith(": alice and Nino score 2 points")
