"""What the accounts' and notices' bad-input tests share: a world in which a refused body
would have something to change (the fixture ``account_world``, offered to every test here
by ``tests/security/conftest.py``), a snapshot of all of it, and how a refusal names a
field."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from push_notifications.models import APNSDevice, GCMDevice
from rest_framework.authtoken.models import Token

from accounts.models import User
from notices import devices, services
from notices.management.commands.vapid_keys import new_pair
from notices.models import NoticePreferences, Notification, PushSubscription
from tests.support.api import create_table

ENDPOINT = "https://fcm.googleapis.com/fcm/send/alices-phone"
TOKEN = "f" * 40


@pytest.fixture
def account_world(settings, api_client_for, alice, bob, carol, dave, mallory) -> dict:
    """alice's table with unread notices for alice and bob, alice's browser subscription
    and phone, and everyone's preferences (made here, so a PATCH does not make them).
    The facts a case's body may name: ``table``, ``notice``, ``endpoint``, ``token``,
    ``alice`` (her id)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_pair()
    settings.VAPID_SUBJECT = "mailto:admin@example.com"
    table_id = create_table(api_client_for(alice), 2, ["friend"])["id"]
    notices = [
        Notification.objects.create(recipient=user, table_id=table_id, kind=kind, key="k")
        for user, kind in ((alice, "friend_joined"), (alice, "table_started"), (bob, "your_turn"))
    ]
    services.push_subscribe(user=alice, endpoint=ENDPOINT, p256dh="B" * 87, auth="A" * 22)
    devices.register(user=alice, platform="fcm", token=TOKEN, name="Pixel")
    for user in (alice, bob, carol, dave, mallory):
        services.preferences_for(user)
    return {
        "table": table_id,
        "notice": notices[0].pk,
        "endpoint": ENDPOINT,
        "token": TOKEN,
        "alice": alice.pk,
    }


def snapshot() -> tuple:
    """Every account (its rights, password, address and settings), token, e-mail address
    and mail sent, and every notice's read mark, preferences, subscription and phone."""
    return (
        sorted(
            User.objects.values_list(
                "username",
                "is_staff",
                "is_superuser",
                "is_active",
                "password",
                "email",
                "language",
                "pip_colour",
                "email_notifications",
            )
        ),
        sorted(Token.objects.values_list("user__username", "key")),
        sorted(EmailAddress.objects.values_list("email", "verified", "primary")),
        len(mail.outbox),
        sorted(Notification.objects.values_list("pk", "read_at")),
        sorted(tuple(row.values()) for row in NoticePreferences.objects.values()),
        sorted(PushSubscription.objects.values_list("user_id", "endpoint", "p256dh", "auth")),
        sorted(GCMDevice.objects.values_list("user_id", "registration_id", "name", "active")),
        sorted(APNSDevice.objects.values_list("user_id", "registration_id", "name", "active")),
    )


def assert_refused(fields: dict, path: str, message: str | None) -> None:
    """``fields`` names the field at ``path`` (``keys.p256dh``: nested) and nothing else,
    with ``message`` (or the field's own one sentence when None)."""
    for name in path.split("."):
        assert list(fields) == [name], fields
        fields = fields[name]
    assert len(fields) == 1 and isinstance(fields[0], str) and fields[0], fields
    if message is not None:
        assert fields == [message]


def send_refused_body(client, method: str, path: str, body: dict, field: str, message) -> dict:
    """Send ``body`` as JSON with ``client``'s ``method`` to ``path`` and check the answer
    is 400 ``invalid`` naming only ``field`` with ``message`` (``assert_refused``), and
    that nothing of the world changed (``snapshot``). Returns the answer's JSON."""
    before = snapshot()

    response = getattr(client, method)(path, json.dumps(body), content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    payload = response.json()
    assert payload["code"] == "invalid", payload
    assert_refused(payload["fields"], field, message)
    assert snapshot() == before
    return payload
