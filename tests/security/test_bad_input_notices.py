"""The notices API's bodies, and every boolean of the API, refuse a wrong JSON type as the
tables' and accounts' do: a text field (or a choice among texts: ``time_zone``,
``platform``, ``language``) given a number, a boolean or a list, a boolean
given anything but JSON ``true``/``false`` (``"false"``, ``0``, ``"yes"``), a whole number
given a string (``{"table": "12"}``, ``{"ids": ["7"]}``) are 400 ``invalid`` naming the
field in ``fields``, and nothing changes: the notices' read marks, everyone's preferences
and ``email_notifications``, the Web Push subscriptions, the phones. Cases in
``bad_input_notice_types.py``; a form's body keeps DRF's checkboxes."""

from __future__ import annotations

import json

import pytest
from django.http import QueryDict
from push_notifications.models import APNSDevice, GCMDevice
from rest_framework import serializers

from accounts.models import User
from core.json_input import JsonTypesMixin
from notices import devices, services
from notices.management.commands.vapid_keys import new_pair
from notices.models import NoticePreferences, Notification, PushSubscription
from tests.security.bad_input_notice_types import NOTICE_TYPE_CASES, PREFERENCES
from tests.support.api import create_table

pytestmark = pytest.mark.django_db

ENDPOINT = "https://push.example.com/send/alices-phone"
TOKEN = "f" * 40


@pytest.fixture
def world(settings, api_client_for, alice, bob, carol, dave, mallory) -> dict:
    """alice's table with unread notices for alice and bob, alice's browser subscription
    and phone, and everyone's preferences (made here, so a PATCH does not make them)."""
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
    return {"table": table_id, "notice": notices[0].pk, "endpoint": ENDPOINT, "token": TOKEN}


def _snapshot() -> tuple:
    return (
        sorted(Notification.objects.values_list("pk", "read_at")),
        sorted(tuple(row.values()) for row in NoticePreferences.objects.values()),
        sorted(User.objects.values_list("username", "email_notifications")),
        sorted(PushSubscription.objects.values_list("user_id", "endpoint", "p256dh", "auth")),
        sorted(GCMDevice.objects.values_list("user_id", "registration_id", "name", "active")),
        sorted(APNSDevice.objects.values_list("user_id", "registration_id", "name", "active")),
    )


def _refused(fields: dict, path: str, message: str | None) -> None:
    """``fields`` names the field at ``path`` (``keys.p256dh``: nested) and nothing else,
    with ``message`` (or the field's own one sentence when None)."""
    for name in path.split("."):
        assert list(fields) == [name], fields
        fields = fields[name]
    assert len(fields) == 1 and isinstance(fields[0], str) and fields[0], fields
    if message is not None:
        assert fields == [message]


@pytest.mark.parametrize(
    ("who", "method", "path", "body", "field", "message"),
    [case[1:] for case in NOTICE_TYPE_CASES],
    ids=[case[0] for case in NOTICE_TYPE_CASES],
)
def test_a_wrong_json_type_is_400_invalid_naming_the_field_and_changes_nothing(
    world, api_client_for, request, who, method, path, body, field, message
):
    client = api_client_for(request.getfixturevalue(who))
    before = _snapshot()

    response = getattr(client, method)(
        path, json.dumps(body(world)), content_type="application/json"
    )

    assert response.status_code == 400, response.content[:300]
    payload = response.json()
    assert payload["code"] == "invalid", payload
    _refused(payload["fields"], field, message)
    assert _snapshot() == before


def test_the_booleans_are_refused_in_english_too(world, api_client_for, alice):
    r = api_client_for(alice).patch(
        PREFERENCES, {"email_your_turn": "false"}, HTTP_ACCEPT_LANGUAGE="en"
    )

    assert r.status_code == 400
    assert r.json()["fields"] == {"email_your_turn": ["Must be true or false."]}


def test_json_true_and_false_and_the_right_types_still_pass(world, api_client_for, alice):
    client = api_client_for(alice)

    prefs = client.patch(PREFERENCES, {"email_your_turn": False, "push_reminder": True})
    me = client.patch("/api/v1/me/", {"email_notifications": False})
    read = client.post("/api/v1/notifications/read/", {"ids": [world["notice"]]})

    assert (prefs.status_code, me.status_code, read.status_code) == (200, 200, 200)
    assert prefs.json()["email_your_turn"] is False and me.json()["email_notifications"] is False
    assert read.json() == {"marked": 1, "unread": 1}


class _Flag(JsonTypesMixin, serializers.Serializer):
    flag = serializers.BooleanField(required=False)


def test_a_form_body_keeps_drf_reading_of_checkboxes():
    """A ``QueryDict`` (an HTML form, the browsable API's form) says true as "on" or
    "true" and false by leaving the box out: the mixin leaves its booleans to DRF."""
    for value, read in (("on", True), ("true", True), ("false", False)):
        form = _Flag(data=QueryDict(f"flag={value}"))
        assert form.is_valid(), form.errors
        assert form.validated_data["flag"] is read
    assert _Flag(data=QueryDict("")).is_valid()
    refused = _Flag(data={"flag": "on"})
    assert not refused.is_valid() and refused.errors["flag"][0].code == "invalid"
