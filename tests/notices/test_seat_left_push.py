"""A guest who gives up their seat at a waiting table: the others seated were told in the
inbox only, while a seat taken (``friend_joined``) and a table filled (``table_started``)
also reach their devices. The creator, whose old link died with the departure, learns it
on their phone too now: a push under its own switch (``push_seat_left``, as each seating
kind has), saying who left which table and linking to it, never a tile; sent once, even
when the task runs again; no e-mail, as for the other seating notices."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core import mail

from notices import tasks as notice_tasks
from notices.models import Notification
from tables.models import Table
from tests.notices.test_push import Device
from tests.support.api import create_table, join
from tests.support.clock import T0

pytestmark = pytest.mark.django_db

AWAY = T0 + timedelta(minutes=5)  # everyone's presence from T0 has run out (120 s)
TILE = re.compile(r"\b[0-9]-[0-9]\b")


class Phone:
    """Alice's browser subscribed to her pushes, and what the push service received."""

    def __init__(self, api_client_for, alice, service) -> None:
        self.device = Device(f"{service.url}/push/alice-phone")
        self.service = service
        answer = api_client_for(alice).post(
            "/api/v1/push/subscriptions/", self.device.subscription, format="json"
        )
        assert answer.status_code == 201, answer.json()

    def seat_left(self) -> list[dict]:
        """The ``seat_left`` pushes it received, decrypted."""
        messages = [self.device.decrypt(body) for _headers, body in self.service.received]
        return [message for message in messages if message["kind"] == "seat_left"]


@pytest.fixture
def alices_phone(api_client_for, alice, push_service, vapid) -> Phone:
    return Phone(api_client_for, alice, push_service)


def _bob_leaves(clock, api_client_for, run_tasks, creator, guest) -> int:
    """``creator``'s three-seat table with two friends' seats; ``guest`` takes one and,
    once the creator is away, gives it up. Returns the table's id."""
    created = create_table(api_client_for(creator), 3, ["friend", "friend"], target=50)
    with run_tasks():
        join(api_client_for(guest), created["invites"][0]["token"])
    clock.move_to(AWAY)
    with run_tasks():
        left = api_client_for(guest).post(f"/api/v1/tables/{created['id']}/abandon/")
    assert left.json() == {"id": created["id"], "status": "waiting", "left": True}
    return created["id"]


def test_the_creator_gets_one_push_naming_the_table_even_if_the_task_runs_twice(
    clock, api_client_for, run_tasks, alice, bob, alices_phone
):
    mail.outbox.clear()
    table_id = _bob_leaves(clock, api_client_for, run_tasks, alice, bob)

    [pushed] = alices_phone.seat_left()
    assert pushed["url"] == f"/mesas/{table_id}/" and pushed["tag"] == f"table-{table_id}"
    assert pushed["body"].startswith(f"bob dejó su asiento en la mesa {table_id}: ")
    assert "enlace nuevo" in pushed["body"]
    assert not TILE.search(json.dumps(pushed)), "a push carries a tile"
    notice = Notification.objects.get(recipient=alice, kind="seat_left")
    assert notice.push == "sent" and notice.channels == ["push"]

    # The task run again (a retry): nothing written, nothing pushed, no e-mail either.
    version = Table.objects.get(pk=table_id).version
    with run_tasks():
        assert notice_tasks.record_seat_left(table_id, bob.pk, "bob", 1, version) == 0
        notice_tasks.deliver_pushes()
        notice_tasks.deliver_emails()
    assert len(alices_phone.seat_left()) == 1
    assert Notification.objects.filter(recipient=alice, kind="seat_left").count() == 1
    notice.refresh_from_db()
    assert notice.email == "" and "email" not in notice.channels
    assert [message for message in mail.outbox if "asiento" in message.subject] == []


def test_with_the_switch_off_the_notice_stays_in_the_inbox(
    clock, api_client_for, run_tasks, alice, bob, alices_phone
):
    changed = api_client_for(alice).patch(
        "/api/v1/notifications/preferences/", {"push_seat_left": False}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["push_seat_left"] is False
    assert changed.json()["push_friend_joined"] is True

    _bob_leaves(clock, api_client_for, run_tasks, alice, bob)

    assert alices_phone.seat_left() == []
    notice = Notification.objects.get(recipient=alice, kind="seat_left")
    assert notice.push == "skipped" and notice.channels == []


def test_the_settings_page_has_the_switch(client, alice, vapid):
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="push_seat_left"' in page
    assert "En el dispositivo: alguien dejó su asiento" in page
