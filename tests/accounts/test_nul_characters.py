"""A NUL (U+0000) in an accounts or device field is refused exactly as another control
character (U+0001) is there: the same code, field and sentence, and nothing changed. A
NUL never reaches allauth or the database (PostgreSQL cannot store one: a 500 there)."""

import pytest
from allauth.account.models import EmailAddress
from push_notifications.models import APNSDevice, GCMDevice
from rest_framework.authtoken.models import Token

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-long-pass-phrase"

# (who asks, method, path, body with {c} where the control character goes)
CASES = {
    "signup username": (
        None,
        "post",
        "/api/v1/accounts/signup/",
        {"username": "zo{c}e", "email": "zoe@example.com", "password": NEW_PASSWORD},
    ),
    "signup email": (
        None,
        "post",
        "/api/v1/accounts/signup/",
        {"username": "zoe", "email": "zo{c}e@example.com", "password": NEW_PASSWORD},
    ),
    "signup email domain": (
        None,
        "post",
        "/api/v1/accounts/signup/",
        {"username": "zoe", "email": "zoe@exam{c}ple.com", "password": NEW_PASSWORD},
    ),
    "me email": ("alice", "patch", "/api/v1/me/", {"email": "al{c}ice@example.org"}),
    "email change": ("alice", "post", "/api/v1/accounts/email/", {"email": "a{c}@example.org"}),
    "reset email": (None, "post", "/api/v1/accounts/password/reset/", {"email": "a{c}@x.org"}),
    "token username": (
        None,
        "post",
        "/api/v1/accounts/token/",
        {"username": "ali{c}ce", "password": PASSWORD},
    ),
    "token password": (
        None,
        "post",
        "/api/v1/accounts/token/",
        {"username": "alice", "password": PASSWORD + "{c}"},
    ),
    "login username": (
        None,
        "post",
        "/api/v1/accounts/login/",
        {"username": "alice@example.com{c}", "password": PASSWORD},
    ),
    "login password": (
        None,
        "post",
        "/api/v1/accounts/login/",
        {"username": "alice", "password": "{c}" + PASSWORD},
    ),
    "verify key": (None, "post", "/api/v1/accounts/email/verify/", {"key": "MQ:1{c}abc"}),
    "reset key": (
        None,
        "post",
        "/api/v1/accounts/password/reset/key/",
        {"key": "1-ab{c}c", "password": NEW_PASSWORD},
    ),
    "delete password": (
        "alice",
        "post",
        "/api/v1/accounts/delete/",
        {"password": PASSWORD + "{c}"},
    ),
    "device token": (
        "alice",
        "post",
        "/api/v1/push/devices/",
        {"platform": "fcm", "token": "f" * 30 + "{c}"},
    ),
    "device token apns": (
        "alice",
        "post",
        "/api/v1/push/devices/",
        {"platform": "apns", "token": "{c}" + "a" * 64},
    ),
    "device forget": (
        "alice",
        "delete",
        "/api/v1/push/devices/",
        {"platform": "fcm", "token": "f" * 30 + "{c}"},
    ),
}


def _state(alice) -> tuple:
    alice.refresh_from_db()
    return (
        list(User.objects.order_by("pk").values_list("username", "email", "password")),
        list(EmailAddress.objects.order_by("pk").values_list("email", "verified", "primary")),
        Token.objects.count(),
        GCMDevice.objects.count() + APNSDevice.objects.count(),
    )


def _ask(client, case, character):
    _who, method, path, body = CASES[case]
    filled = {name: value.replace("{c}", character) for name, value in body.items()}
    return getattr(client, method)(path, filled, format="json")


@pytest.fixture
def client_for(api_client_for, anonymous_client):
    return lambda user: api_client_for(user) if user else anonymous_client


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_nul_is_refused_as_any_other_control_character(
    case, alice, client_for, generous_rates
):
    client = client_for(alice if CASES[case][0] else None)
    before = _state(alice)

    other = _ask(client, case, "\x01")
    nul = _ask(client, case, "\x00")

    assert other.status_code == 400, other.content
    assert nul.status_code == 400, nul.content
    assert nul.json() == other.json()
    assert _state(alice) == before
