"""The notices name who else plays as "Mis mesas" does (``tables.naming``): in play order
after the reader (R3), and in pairs the partner first and marked, "con dave (tu pareja)
contra carol y alice", where they named the rivals in seat order ("contra alice y
carol"). bob sits at seat 1, so play order after him (2, 3, 0) is not seat order."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from notices import selectors
from notices.models import Notification
from tests.support.api import create_table, join, play_until

pytestmark = pytest.mark.django_db


def _seated(api_client_for, run_tasks, users) -> tuple[int, dict]:
    """A table of ``users`` (the first creates it, the others join by seat in order)."""
    created = create_table(api_client_for(users[0]), len(users), ["friend"] * (len(users) - 1))
    invites = {invite["seat"]: invite["token"] for invite in created["invites"]}
    with run_tasks():
        for seat, user in enumerate(users[1:], start=1):
            join(api_client_for(user), invites[seat])
    return created["id"], {seat: api_client_for(user) for seat, user in enumerate(users)}


def _bobs_turn(run_tasks, table_id: int, clients: dict, bob) -> Notification:
    """Play until it is bob's (seat 1) turn; his "your turn" notice."""
    with run_tasks():
        play_until(clients, table_id, random.Random(7), lambda state: state["turn_seat"] == 1)
    return Notification.objects.get(recipient=bob, table_id=table_id, kind="your_turn")


def _described(notice: Notification, language: str = "es") -> str:
    with translation.override(language):
        return selectors.describe(notice)


def test_at_three_seats_the_others_are_named_in_play_order_after_the_reader(
    api_client_for, run_tasks, alice, bob, carol
):
    table_id, clients = _seated(api_client_for, run_tasks, [alice, bob, carol])
    started = Notification.objects.get(recipient=bob, table_id=table_id, kind="table_started")
    assert (started.payload["others"], started.payload["partner"]) == (["carol", "alice"], None)
    assert _described(started) == f"Empezó la partida de la mesa {table_id}: con carol y alice"

    turn = _bobs_turn(run_tasks, table_id, clients, bob)
    assert turn.payload["others"] == ["carol", "alice"]
    assert _described(turn) == f"Te toca en la mesa {table_id}: con carol y alice"
    assert _described(turn, "en") == f"Your turn at table {table_id}: with carol and alice"


def test_in_pairs_the_partner_comes_first_and_marked_then_the_rivals_in_play_order(
    api_client_for, run_tasks, alice, bob, carol, dave
):
    table_id, clients = _seated(api_client_for, run_tasks, [alice, bob, carol, dave])
    with_them = "con dave (tu pareja) contra carol y alice"
    started = Notification.objects.get(recipient=bob, table_id=table_id, kind="table_started")
    assert started.payload["partner"] == "dave"
    assert started.payload["others"] == ["dave", "carol", "alice"]  # partner included, as ever
    assert _described(started) == f"Empezó la partida de la mesa {table_id}: {with_them}"

    turn = _bobs_turn(run_tasks, table_id, clients, bob)
    assert (turn.payload["others"], turn.payload["partner"]) == (["carol", "alice"], "dave")
    assert _described(turn) == f"Te toca en la mesa {table_id}: {with_them}"
    assert _described(turn, "en") == (
        f"Your turn at table {table_id}: with dave (your partner) against carol and alice"
    )


def test_a_notice_written_before_the_partner_was_kept_still_names_the_rivals():
    """A row of before 2026-12 has no ``partner``: its ``others`` were the rivals alone."""
    notice = Notification(
        kind=Notification.Kind.YOUR_TURN, table_id=4, payload={"others": ["ana", "Nino"]}
    )
    assert _described(notice) == "Te toca en la mesa 4: contra ana y Nino"
