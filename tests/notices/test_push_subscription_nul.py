"""A NUL in a Web Push subscription (``POST /api/v1/push/subscriptions/``) is refused as
any other character outside the field's form (U+0001), with the field's one sentence:
not DRF's "Los caracteres nulos no están permitidos." beside it, and nothing stored. An
endpoint refuses every control character ("Escribe una dirección web válida."): Django's URL
check let U+0001 through in a path, and the subscription was stored (201)."""

from __future__ import annotations

import pytest

from notices.models import PushSubscription
from tests.notices.test_push import Device

PATH = "/api/v1/push/subscriptions/"


def _with(subscription: dict, field: str, character: str) -> dict:
    """``subscription`` with ``character`` inside ``field`` (``endpoint``, or one of the
    ``keys``)."""
    changed = {"endpoint": subscription["endpoint"], "keys": dict(subscription["keys"])}
    if field == "endpoint":
        changed["endpoint"] = changed["endpoint"].replace("/push/", "/pu" + character + "sh/")
    else:
        value = changed["keys"][field]
        changed["keys"][field] = value[:8] + character + value[8:]
    return changed


@pytest.mark.parametrize("field", ["endpoint", "p256dh", "auth"])
def test_a_nul_in_a_subscription_is_told_what_a_control_character_is(
    api_client_for, alice, push_service, vapid, field
):
    """alice's device: the same answer for U+0000 as for U+0001 in ``field``, one
    sentence, no subscription stored."""
    device = Device(f"{push_service.url}/push/alice-phone")
    client = api_client_for(alice)
    control = client.post(PATH, _with(device.subscription, field, "\x01"), format="json")
    nul = client.post(PATH, _with(device.subscription, field, "\x00"), format="json")
    assert control.status_code == 400 and control.json()["code"] == "invalid"
    assert nul.status_code == 400
    assert nul.json() == control.json()
    assert not PushSubscription.objects.exists()


def test_forgetting_a_subscription_refuses_a_control_character_in_the_endpoint(
    api_client_for, alice, push_service, vapid
):
    """``DELETE`` with U+0000 or U+0001 in the endpoint: 400, the URL's sentence alone."""
    client = api_client_for(alice)
    for character in ("\x00", "\x01"):
        endpoint = f"{push_service.url}/pu{character}sh/alice-phone"
        answer = client.delete(PATH, {"endpoint": endpoint}, format="json")
        assert answer.status_code == 400
        assert answer.json()["fields"] == {"endpoint": ["Escribe una dirección web válida."]}
