"""The rematch offer as a notice (issue 16): when bob asks for the rematch of a finished
table, every other person seated there gets one ``rematch_offered`` notice, "bob te
propone la revancha en la mesa N", linking to the rematch's page (where one accepts),
in the inbox and by e-mail and push through the usual channel rules (a switch per kind,
quiet hours, sent once), and never a tile.

Mail goes to Django's locmem outbox; the tasks run inline (``run_tasks``); the clock is
stopped at T0 and moved by hand (time-machine).
"""

from __future__ import annotations

import json
import re
from datetime import time, timedelta

import pytest
from django.conf import settings

from notices import push, services
from notices import tasks as notice_tasks
from notices.models import Notification
from tables.models import EmailDelivery, Table
from tests.notices.support import html_of, mails_to
from tests.support.api import create_table, join
from tests.support.clock import T0

pytestmark = pytest.mark.django_db

AWAY = T0 + timedelta(minutes=5)  # everyone's presence from T0 has run out (120 s)
TILE = re.compile(r"\b[0-9]-[0-9]\b")


def _finished(api_client_for, run_tasks, creator, friend, *, others=("friend",)) -> int:
    """``creator``'s table with ``friend`` (and ``others``' bots), over: ``friend``
    abandoned it."""
    created = create_table(api_client_for(creator), 1 + len(others), list(others), target=50)
    with run_tasks():
        join(api_client_for(friend), created["invites"][0]["token"])
        left = api_client_for(friend).post(f"/api/v1/tables/{created['id']}/abandon/")
    assert left.status_code == 200, left.json()
    assert Table.objects.get(pk=created["id"]).status == Table.Status.FINISHED
    return created["id"]


def _ask(clock, api_client_for, run_tasks, user, table_id) -> int:
    clock.move_to(AWAY)
    with run_tasks():
        asked = api_client_for(user).post(f"/api/v1/tables/{table_id}/rematch/")
    assert asked.status_code == 201, asked.json()
    return asked.json()["id"]


def _offers(user) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind="rematch_offered"))


def test_alice_is_offered_bobs_rematch_in_her_inbox_and_by_email_once(
    clock, api_client_for, run_tasks, alice, bob, mallory
):
    finished = _finished(api_client_for, run_tasks, alice, bob)
    mail_before = len(mails_to(alice))
    rematch = _ask(clock, api_client_for, run_tasks, bob, finished)

    (offer,) = _offers(alice)
    assert offer.table_id == rematch and offer.key == ""
    assert offer.payload["by"] == "bob" and offer.payload["rematch_of"] == finished
    assert not TILE.search(json.dumps(offer.payload)), "a notice carries a tile"
    assert _offers(bob) == [] and _offers(mallory) == []  # the asker, a stranger: nothing

    inbox = api_client_for(alice).get("/api/v1/notifications/?unread=1").json()["results"]
    row = next(item for item in inbox if item["kind"] == "rematch_offered")
    assert row["text"] == f"bob te propone la revancha en la mesa {rematch}"
    assert row["path"] == f"/mesas/{rematch}/"

    (message,) = mails_to(alice)[mail_before:]
    assert message.subject == f"Dominó · bob te propone la revancha en la mesa {rematch}"
    assert f"{settings.SITE_URL}/mesas/{rematch}/" in message.body
    assert f"la mesa {finished}" in message.body
    assert f'href="{settings.SITE_URL}/mesas/{rematch}/"' in html_of(message)
    assert not TILE.search(message.body + html_of(message))
    offer.refresh_from_db()
    assert offer.email == "sent" and offer.channels == ["email"]
    assert EmailDelivery.objects.filter(table_id=rematch, recipient=alice, kind="rematch").count()

    # Sent once: the task run again (a retry) writes and mails nothing more.
    with run_tasks():
        assert notice_tasks.record_rematch_offered(rematch) == 0
        notice_tasks.deliver_emails()
    assert len(_offers(alice)) == 1 and len(mails_to(alice)) == mail_before + 1

    # The notice links to where alice accepts: opening it marks it read, she accepts.
    page = api_client_for(alice).get(f"/api/v1/tables/{rematch}/").json()
    assert page["rematch_pending"] is True
    offer.refresh_from_db()
    assert offer.read_at is not None


def test_in_english_it_says_bob_offers_a_rematch(clock, api_client_for, run_tasks, alice, bob):
    alice.language = "en"
    alice.save(update_fields=["language"])
    finished = _finished(api_client_for, run_tasks, alice, bob)
    before = len(mails_to(alice))
    rematch = _ask(clock, api_client_for, run_tasks, bob, finished)
    (message,) = mails_to(alice)[before:]
    assert message.subject == f"Dominó · bob offers you a rematch at table {rematch}"
    assert "The same players and the same rules as at table" in message.body
    (offer,) = _offers(alice)
    assert push.message_for(offer)["body"] == f"bob offers you a rematch at table {rematch}"
    assert push.message_for(offer)["url"] == f"/mesas/{rematch}/"
    assert push.message_for(offer)["kind"] == "rematch_offered"


def test_carol_who_switched_the_email_off_gets_the_inbox_notice_only(
    clock, api_client_for, run_tasks, alice, carol
):
    changed = api_client_for(carol).patch(
        "/api/v1/notifications/preferences/", {"email_rematch_offered": False}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["email_rematch_offered"] is False
    assert changed.json()["push_rematch_offered"] is True
    finished = _finished(api_client_for, run_tasks, carol, alice)
    before = len(mails_to(carol))
    _ask(clock, api_client_for, run_tasks, alice, finished)
    (offer,) = _offers(carol)
    assert offer.email == ""
    assert len(mails_to(carol)) == before


def test_an_offer_answered_during_quiet_hours_is_not_mailed_after(
    clock, api_client_for, run_tasks, alice, bob
):
    services.preferences_update(
        user=alice, changes={"quiet_start": time(9, 0), "quiet_end": time(12, 0)}
    )
    finished = _finished(api_client_for, run_tasks, alice, bob)
    before = len(mails_to(alice))
    rematch = _ask(clock, api_client_for, run_tasks, bob, finished)  # 09:35 UTC: quiet
    (offer,) = _offers(alice)
    assert offer.email == "pending" and len(mails_to(alice)) == before
    accepted = api_client_for(alice).post(f"/api/v1/tables/{rematch}/rematch/accept/")
    assert accepted.json()["status"] == "playing"
    clock.move_to(T0 + timedelta(hours=3))  # quiet hours are over
    with run_tasks():
        notice_tasks.deliver_emails()
    offer.refresh_from_db()
    assert offer.email == "skipped"
    assert [m for m in mails_to(alice)[before:] if "revancha" in m.subject] == []


def test_at_a_table_with_nino_only_the_people_are_offered(
    clock, api_client_for, run_tasks, alice, bob
):
    finished = _finished(api_client_for, run_tasks, alice, bob, others=("friend", "nino"))
    rematch = _ask(clock, api_client_for, run_tasks, alice, finished)
    (offer,) = _offers(bob)
    assert offer.table_id == rematch and offer.payload["by"] == "alice"
    assert offer.payload["others"] == ["Nino", "alice"]  # play order after bob (seat 1)
    assert _offers(alice) == []


def test_the_preferences_page_has_the_switch(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="email_rematch_offered"' in page and "Alguien te propone la revancha" in page
