"""Times a player reads are in their time zone (the settings' "Zona horaria"), with the
month's name in lower case in Spanish: a player in Havana read the inbox's "3 Dic 2025,
18:09" in UTC (while the talk said 13:04, local time), a reminder's "juega antes del ..."
in UTC, and a deadline e-mail "Hasta el 5 Dic 2025, 18:30 (America/Havana)": UTC's time
named as Havana's. The pushes and the API's ``text`` wrote a deadline, and a suspension's
end, in UTC without saying so: now in the player's zone, named as the e-mails name it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.test import Client

from notices import email as notice_email
from notices.models import NoticePreferences, Notification
from notices.push import message_for
from tests.support.pages import seat_friends

pytestmark = pytest.mark.django_db

WRITTEN = datetime(2025, 12, 3, 18, 9, tzinfo=UTC)  # 13:09 in Havana (UTC-5 in winter)
DEADLINE = datetime(2025, 12, 5, 18, 30, tzinfo=UTC)  # 13:30 in Havana


def _in_havana(user) -> None:
    NoticePreferences.objects.create(user=user, time_zone="America/Havana", time_zone_chosen=True)


def _reminder(user, table, **fields) -> Notification:
    return Notification.objects.create(
        recipient=user,
        table=table,
        kind=Notification.Kind.REMINDER,
        key=str(table.version),
        payload={"deadline": DEADLINE.isoformat(), "others": ["bob"]},
        created_at=WRITTEN,
        **fields,
    )


def test_the_inbox_says_when_in_the_players_zone(alice, bob):
    _in_havana(alice)
    table = seat_friends(alice, [bob])
    Notification.objects.filter(recipient=alice).delete()
    _reminder(alice, table)
    client = Client()
    client.force_login(alice)

    page = client.get("/avisos/").content.decode()

    assert ">3 dic 2025, 13:09</time>" in page, page
    assert "juega antes del 5 de diciembre de 2025 a las 13:30 (America/Havana)" in page
    assert "Dic" not in page and "18:09" not in page


def test_an_inbox_without_a_zone_says_utc(alice, bob):
    table = seat_friends(alice, [bob])
    Notification.objects.filter(recipient=alice).delete()
    _reminder(alice, table)
    client = Client()
    client.force_login(alice)

    assert ">3 dic 2025, 18:09</time>" in client.get("/avisos/").content.decode()


def test_a_deadline_e_mail_writes_the_players_time_of_the_zone_it_names(clock, alice, bob):
    _in_havana(alice)
    table = seat_friends(alice, [bob])
    Notification.objects.filter(recipient=alice).delete()
    clock.move_to(datetime(2025, 12, 4, 19, 0, tzinfo=UTC))
    table.deadline = DEADLINE
    table.save(update_fields=["deadline"])
    mail.outbox.clear()
    _reminder(alice, table, email="pending", email_due_at=WRITTEN)

    assert notice_email.deliver(alice.pk) == 1

    (message,) = mail.outbox
    assert "Hasta el 5 dic 2025, 13:30 (America/Havana)" in message.body, message.body
    html = message.alternatives[0][0]
    assert "Hasta el 5 dic 2025, 13:30 (America/Havana)" in html


@pytest.mark.parametrize(
    ("player", "zone", "said"),
    [
        (
            "alice",
            "America/Havana",
            "juega antes del 5 de diciembre de 2025 a las 13:30 (America/Havana)",
        ),
        ("alice", None, "juega antes del 5 de diciembre de 2025 a las 18:30 (UTC)"),
        ("carol", "Havana", "play before Dec. 5, 2025, 1:30 p.m. (America/Havana)"),
    ],
)
def test_a_push_and_the_api_write_a_deadline_in_the_players_zone(
    request, api_client_for, bob, player, zone, said
):
    user = request.getfixturevalue(player)
    if zone:
        _in_havana(user)
    table = seat_friends(user, [bob])
    Notification.objects.filter(recipient=user).delete()
    notice = _reminder(user, table)

    pushed = message_for(notice)["body"]
    api = api_client_for(user).get("/api/v1/notifications/", HTTP_ACCEPT_LANGUAGE=user.language)
    answered = api.json()["results"][0]["text"]

    assert pushed.endswith(said) and answered == pushed, (pushed, answered)
    assert not re.search(r"\d-\d", pushed)  # never a tile ("6-4")


def test_a_suspensions_end_is_in_the_players_zone(api_client_for, alice):
    _in_havana(alice)
    payload = {"action": "suspend", "reason": "spam", "table": None, "until": DEADLINE.isoformat()}
    notice = Notification.objects.create(
        recipient=alice, kind=Notification.Kind.MODERATION, payload=payload
    )

    text = api_client_for(alice).get("/api/v1/notifications/").json()["results"][0]["text"]

    assert text.startswith(
        "Un moderador te suspendió hasta el 5 de diciembre de 2025 a las 13:30 (America/Havana):"
    ), text
    assert message_for(notice)["body"] == text
