"""The notices API's bodies, and every boolean of the API, refuse a wrong JSON type as the
tables' and accounts' do: a text field (or a choice among texts: ``time_zone``,
``platform``, ``language``) given a number, a boolean or a list, a boolean
given anything but JSON ``true``/``false`` (``"false"``, ``0``, ``"yes"``), a whole number
given a string (``{"table": "12"}``, ``{"ids": ["7"]}``) are 400 ``invalid`` naming the
field in ``fields``, and nothing changes: the notices' read marks, everyone's preferences
and ``email_notifications``, the Web Push subscriptions, the phones. Cases in
``bad_input_notice_types.py``; a form's body keeps DRF's checkboxes."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from rest_framework import serializers

from core.json_input import JsonTypesMixin
from tests.security.account_world import send_refused_body
from tests.security.bad_input_notice_types import NOTICE_TYPE_CASES, PREFERENCES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("who", "method", "path", "body", "field", "message"),
    [case[1:] for case in NOTICE_TYPE_CASES],
    ids=[case[0] for case in NOTICE_TYPE_CASES],
)
def test_a_wrong_json_type_is_400_invalid_naming_the_field_and_changes_nothing(
    account_world, api_client_for, request, who, method, path, body, field, message
):
    client = api_client_for(request.getfixturevalue(who))

    send_refused_body(client, method, path, body(account_world), field, message)


def test_the_booleans_are_refused_in_english_too(account_world, api_client_for, alice):
    r = api_client_for(alice).patch(
        PREFERENCES, {"email_your_turn": "false"}, HTTP_ACCEPT_LANGUAGE="en"
    )

    assert r.status_code == 400
    assert r.json()["fields"] == {"email_your_turn": ["Must be true or false."]}


def test_json_true_and_false_and_the_right_types_still_pass(account_world, api_client_for, alice):
    client = api_client_for(alice)

    prefs = client.patch(PREFERENCES, {"email_your_turn": False, "push_reminder": True})
    me = client.patch("/api/v1/me/", {"email_notifications": False})
    read = client.post("/api/v1/notifications/read/", {"ids": [account_world["notice"]]})

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
