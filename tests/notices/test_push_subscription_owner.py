"""A Web Push endpoint stays its owner's. Whoever knew alice's endpoint could post it with
keys of their own and take the row (the endpoint is the row's key): alice's device then
got nobody's pushes, and mallory's went to alice's browser. A second account now gets the
row only by showing the subscription's ``auth`` secret (the same browser, signed in as
someone else, sends the same keys); otherwise ``409 subscription_taken`` and alice keeps
hers, keys unchanged, and still gets her pushes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from notices.models import PushSubscription
from tests.notices.test_push import Device
from tests.support.api import create_table, join
from tests.support.clock import T0

pytestmark = pytest.mark.django_db

PATH = "/api/v1/push/subscriptions/"


def _subscribe(client, subscription: dict):
    return client.post(PATH, subscription, format="json")


def test_mallory_cannot_take_alices_endpoint_with_keys_of_her_own(
    clock, run_tasks, api_client_for, alice, bob, mallory, push_service, vapid
):
    alices = Device(f"{push_service.url}/fcm/send/alice-phone")
    assert _subscribe(api_client_for(alice), alices.subscription).status_code == 201
    endpoint = alices.subscription["endpoint"]
    mallorys = Device(endpoint)  # the same address, keys of her own
    half_right = {  # alice's public key, not her auth secret
        "endpoint": endpoint,
        "keys": {**alices.subscription["keys"], "auth": mallorys.subscription["keys"]["auth"]},
    }

    for body in (mallorys.subscription, half_right):
        refused = _subscribe(api_client_for(mallory), body)
        assert refused.status_code == 409, refused.content
        assert refused.json()["code"] == "subscription_taken"
        assert refused.json()["detail"] == (
            "Este dispositivo ya recibe los avisos de otra cuenta. Para recibir los tuyos, "
            "desactívalos allí o vuelve a suscribir el navegador."
        )
    row = PushSubscription.objects.get(endpoint=endpoint)
    assert row.user == alice
    assert (row.p256dh, row.auth) == (
        alices.subscription["keys"]["p256dh"],
        alices.subscription["keys"]["auth"],
    )
    assert not PushSubscription.objects.filter(user=mallory).exists()
    # mallory cannot forget it either
    gone = api_client_for(mallory).delete(PATH, {"endpoint": endpoint}, format="json")
    assert gone.status_code == 404

    # alice still gets her pushes, readable with her keys
    created = create_table(api_client_for(alice), 2, ["friend"])
    clock.move_to(T0 + timedelta(minutes=5))
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    pushed = [alices.decrypt(body)["kind"] for _headers, body in push_service.received]
    assert "friend_joined" in pushed


def test_the_same_browser_signed_in_as_bob_shows_the_keys_and_moves_the_row(
    api_client_for, alice, bob, push_service, vapid
):
    tablet = Device(f"{push_service.url}/fcm/send/shared-tablet")
    assert _subscribe(api_client_for(alice), tablet.subscription).status_code == 201
    assert _subscribe(api_client_for(bob), tablet.subscription).status_code == 201
    assert PushSubscription.objects.get().user == bob


def test_the_owner_may_renew_her_keys(api_client_for, alice, push_service, vapid):
    first = Device(f"{push_service.url}/fcm/send/alice-phone")
    assert _subscribe(api_client_for(alice), first.subscription).status_code == 201
    renewed = Device(first.subscription["endpoint"])
    assert _subscribe(api_client_for(alice), renewed.subscription).status_code == 201
    row = PushSubscription.objects.get()
    assert row.user == alice and row.auth == renewed.subscription["keys"]["auth"]


def test_the_refusal_speaks_english(api_client_for, alice, mallory, push_service, vapid):
    alices = Device(f"{push_service.url}/fcm/send/alice-phone")
    assert _subscribe(api_client_for(alice), alices.subscription).status_code == 201
    refused = api_client_for(mallory).post(
        PATH,
        Device(alices.subscription["endpoint"]).subscription,
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "This device already gets another account's notices. To get yours, turn them off "
        "there or subscribe the browser again."
    )
