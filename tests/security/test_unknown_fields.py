"""The accounts' and notices' bodies refuse a field they do not take as the tables' do:
400 ``invalid`` naming it in ``fields`` ("No es un campo de esta petición."), and nothing
changes: no account, right, token, session, mail, read mark, preference, subscription or
phone. Cases in ``unknown_field_cases.py``; what the site's own clients send still
passes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from notices.models import PushSubscription
from tests.security.account_world import send_refused_body
from tests.security.bad_input_notice_types import KEYS, ME, NEW, PREFERENCES, SUBSCRIPTIONS
from tests.security.unknown_field_cases import UNKNOWN_FIELD_CASES

pytestmark = pytest.mark.django_db

NOT_A_FIELD = {"es": "No es un campo de esta petición.", "en": "Not a field of this request."}


@pytest.mark.parametrize(
    ("who", "method", "path", "body", "field"),
    [case[1:] for case in UNKNOWN_FIELD_CASES],
    ids=[case[0] for case in UNKNOWN_FIELD_CASES],
)
def test_a_field_the_body_does_not_take_is_400_invalid_naming_it_and_changes_nothing(
    account_world, api_client_for, request, who, method, path, body, field
):
    client = api_client_for(request.getfixturevalue(who)) if who else APIClient()

    payload = send_refused_body(client, method, path, body(account_world), field, NOT_A_FIELD["es"])

    assert isinstance(payload["detail"], str) and payload["detail"]
    assert "_auth_user_id" not in client.session


def test_every_unknown_field_is_named_in_english_too(account_world, api_client_for, alice):
    r = api_client_for(alice).patch(
        ME, {"languag": "en", "is_staff": True}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )

    assert r.status_code == 400
    assert r.json()["fields"] == {
        "is_staff": [NOT_A_FIELD["en"]],
        "languag": [NOT_A_FIELD["en"]],
    }
    alice.refresh_from_db()
    assert (alice.language, alice.is_staff) == ("es", False)


def test_what_a_client_read_may_be_sent_back(account_world, api_client_for, alice):
    """``PATCH /me/`` and the preferences with the whole of their ``GET``: the read-only
    fields (``username``, ``unread_notifications``) are the resource's own, known and
    ignored, so a client may change one value of what it read and send it all back."""
    client = api_client_for(alice)
    me = {**client.get(ME).json(), "pip_colour": "black"}
    preferences = {**client.get(PREFERENCES).json(), "time_zone": "America/Havana"}

    assert client.patch(ME, me, format="json").status_code == 200
    assert client.patch(PREFERENCES, preferences, format="json").status_code == 200
    alice.refresh_from_db()
    assert alice.pip_colour == "black"
    assert alice.notice_preferences.time_zone == "America/Havana"


@pytest.mark.parametrize("expiration", [None, 1767225600000])
def test_the_browsers_own_subscription_object_is_taken(
    account_world, api_client_for, bob, expiration
):
    """``PushSubscription.toJSON()`` in Chromium and Firefox carries ``expirationTime``
    (``null``, or the time in milliseconds): the site's page posts it as it is."""
    body = {"endpoint": NEW, "expirationTime": expiration, "keys": KEYS}

    r = api_client_for(bob).post(SUBSCRIPTIONS, body, format="json")

    assert r.status_code == 201, r.content
    assert PushSubscription.objects.filter(user=bob, endpoint=NEW).exists()
