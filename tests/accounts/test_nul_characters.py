"""A NUL (U+0000) in an accounts or device field is refused exactly as another control
character (U+0001) is there: the same code, field and sentence, and nothing changed. A
field that takes U+0001 (a new password, as on the web; a phone's name) refuses a NUL
with a sentence of its own. A NUL never reaches the database (PostgreSQL cannot store
one: a 500 there). tests/accounts/test_nul_current_password.py checks the current
passwords under the live server's hasher (PBKDF2), which hashes "x\\0" as "x"."""

import pytest
from allauth.account.models import EmailAddress
from push_notifications.models import APNSDevice, GCMDevice
from rest_framework.authtoken.models import Token

from accounts.models import User
from tests.conftest import PASSWORD
from tests.support.mail import reset_key

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
    "change old password": (
        "alice",
        "post",
        "/api/v1/accounts/password/change/",
        {"old_password": PASSWORD + "{c}", "new_password": NEW_PASSWORD},
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


def _ask(client, case, character, key="", cases=CASES):
    _who, method, path, body = cases[case][:4]
    filled = {
        name: value.replace("{c}", character).replace("{key}", key) for name, value in body.items()
    }
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


NEW_PASSWORD_NUL = "La contraseña no puede contener el carácter nulo."

# Fields that take U+0001, each with the field a NUL is refused under and its sentence:
# (who asks, method, path, body with {c} and {key}: a live reset key, field, sentence)
OWN_SENTENCE_CASES = {
    "signup password": (
        None,
        "post",
        "/api/v1/accounts/signup/",
        {"username": "zoe", "email": "zoe@example.com", "password": NEW_PASSWORD + "{c}"},
        "password",
        NEW_PASSWORD_NUL,
    ),
    "change new password": (
        "alice",
        "post",
        "/api/v1/accounts/password/change/",
        {"old_password": PASSWORD, "new_password": "{c}" + NEW_PASSWORD},
        "new_password",
        NEW_PASSWORD_NUL,
    ),
    "reset password": (
        None,
        "post",
        "/api/v1/accounts/password/reset/key/",
        {"key": "{key}", "password": NEW_PASSWORD + "{c}"},
        "password",
        NEW_PASSWORD_NUL,
    ),
    "device name": (
        "alice",
        "post",
        "/api/v1/push/devices/",
        {"platform": "fcm", "token": "f" * 152, "name": "Pixel de {c}alice"},
        "name",
        "El nombre del dispositivo no puede contener el carácter nulo.",
    ),
}


@pytest.fixture
def fcm_on(settings, tmp_path):
    """FCM on as far as the devices API can tell (it takes FCM tokens); nothing is sent."""
    settings.FCM_CREDENTIALS_FILE = str(tmp_path / "service-account.json")


@pytest.mark.parametrize("case", sorted(OWN_SENTENCE_CASES))
def test_a_nul_where_other_controls_are_taken_has_its_own_sentence(
    case, alice, client_for, anonymous_client, generous_rates, fcm_on
):
    """alice's NUL is refused under the field with its sentence and changes nothing (a
    reset key stays usable); the same request with U+0001 is then taken."""
    who, _method, _path, _body, field, sentence = OWN_SENTENCE_CASES[case]
    anonymous_client.post("/api/v1/accounts/password/reset/", {"email": "alice@example.com"})
    key = reset_key("alice@example.com")
    client = client_for(alice if who else None)
    before = _state(alice)

    nul = _ask(client, case, "\x00", key, OWN_SENTENCE_CASES)

    assert nul.status_code == 400, nul.content
    assert nul.json() == {
        "code": "invalid",
        "detail": "Los datos enviados no son válidos.",
        "fields": {field: [sentence]},
    }
    assert _state(alice) == before
    other = _ask(client, case, "\x01", key, OWN_SENTENCE_CASES)
    assert other.status_code in (200, 201), other.content


@pytest.mark.parametrize(
    ("case", "sentence"),
    [
        ("signup password", "A password cannot contain the null character."),
        ("device name", "A device's name cannot contain the null character."),
    ],
)
def test_mallory_reads_the_nul_sentences_in_english(
    case, sentence, mallory, client_for, generous_rates, fcm_on
):
    client = client_for(mallory if OWN_SENTENCE_CASES[case][0] else None)
    _who, method, path, body, field, _spanish = OWN_SENTENCE_CASES[case]
    filled = {name: value.replace("{c}", "\x00") for name, value in body.items()}

    answer = getattr(client, method)(path, filled, format="json", HTTP_ACCEPT_LANGUAGE="en")

    assert answer.status_code == 400, answer.content
    assert answer.json()["fields"] == {field: [sentence]}
