"""Notice preferences (issue 15): per kind and channel, quiet hours in the player's time
zone (e-mails wait until they end; the deadline reminder does not), on the settings page
and through ``/api/v1/notifications/preferences/``."""

from __future__ import annotations

import random
from datetime import time, timedelta

import pytest
from django.core import mail

from notices import tasks as notice_tasks
from notices.models import NoticePreferences
from tests.notices.support import mails_to
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import MINUTE, T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

URL = "/api/v1/notifications/preferences/"


def test_the_api_reads_and_changes_only_what_it_is_given(api_client_for, alice):
    client = api_client_for(alice)
    defaults = client.get(URL).json()
    assert defaults["email_your_turn"] is True and defaults["time_zone"] == "UTC"
    assert defaults["quiet_start"] is None
    answer = client.patch(
        URL,
        {
            "email_match_over": False,
            "time_zone": "America/Havana",
            "quiet_start": "22:00",
            "quiet_end": "08:00",
        },
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    after = client.get(URL).json()
    assert after == defaults | {
        "email_match_over": False,
        "time_zone": "America/Havana",
        "time_zone_chosen": True,
        "quiet_start": "22:00:00",
        "quiet_end": "08:00:00",
    }


@pytest.mark.parametrize(
    "body",
    [
        {"time_zone": "Mars/Olympus"},
        {"quiet_start": "25:00", "quiet_end": "08:00"},
        {"quiet_start": "22:00"},
        {"email_reminder": "maybe"},
    ],
)
def test_bad_preferences_are_refused_and_change_nothing(api_client_for, alice, body):
    client = api_client_for(alice)
    before = client.get(URL).json()
    answer = client.patch(URL, body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert client.get(URL).json() == before


def test_the_settings_page_has_the_section_and_saves_it(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert 'id="avisos"' in page and 'name="email_your_turn"' in page
    assert 'name="time_zone"' in page and "js/notices.js" in page
    answer = client.post(
        "/avisos/preferencias/",
        {
            "email_your_turn": "on",
            "email_match_over": "on",
            "time_zone": "Europe/Madrid",
            "quiet_start": "23:00",
            "quiet_end": "07:30",
        },
    )
    assert answer.status_code == 302 and answer["Location"].endswith("/accounts/settings/#avisos")
    saved = NoticePreferences.objects.get(user=alice)
    assert (saved.email_your_turn, saved.email_reminder, saved.email_match_over) == (
        True,
        False,
        True,
    )
    assert saved.time_zone == "Europe/Madrid"
    assert (saved.quiet_start, saved.quiet_end) == (time(23, 0), time(7, 30))
    refused = client.post("/avisos/preferencias/", {"time_zone": "UTC", "quiet_start": "23:00"})
    assert refused.status_code == 400
    assert NoticePreferences.objects.get(user=alice).quiet_start == time(23, 0)


def test_a_turn_email_waits_for_the_quiet_hours_to_end_in_the_players_time_zone(
    clock, api_client_for, run_tasks, alice, bob
):
    """T0 is 09:30 UTC, 04:30 in Havana (UTC-5 until summer time on 10 March 2030): quiet
    until 07:00 there, 12:00 UTC."""
    created = create_table(api_client_for(alice), 2, ["friend"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    users = {0: alice, 1: bob}
    clock.move_to(T0 + 5 * MINUTE)
    turn = fresh(created["id"]).turn_seat
    waiting = users[1 - turn]
    NoticePreferences.objects.update_or_create(
        user=waiting,
        defaults={"time_zone": "America/Havana", "quiet_start": "22:00", "quiet_end": "07:00"},
    )
    with run_tasks():
        state = table(clients[turn], created["id"])
        assert play_one(clients[turn], state, random.Random(5)).status_code == 200
    quiet_ends = T0.replace(hour=12, minute=0)  # 07:00 in Havana (UTC-5)
    now = T0 + 5 * MINUTE
    while now < quiet_ends:
        clock.move_to(now)
        notice_tasks.deliver_emails()
        now += timedelta(minutes=10)
    assert mail.outbox == []
    clock.move_to(quiet_ends)
    assert notice_tasks.deliver_emails() == 1
    assert len(mails_to(waiting)) == 1
