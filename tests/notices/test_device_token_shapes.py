"""A phone's token (``POST /api/v1/push/devices/``) gets the scrutiny a browser's endpoint
gets: the platform exactly as the API names it (``fcm``, ``apns``), and a token of that
platform's shape, whole: APNs's 32 bytes in hex (64 digits, any case), FCM's registration
token (letters, digits, ``_``, ``-``, ``:``; 100 to 1024 characters). The API took 65 to
200 hex digits for APNs, 20 characters for FCM, and a token ending in a newline."""

from __future__ import annotations

import pytest
from push_notifications.models import APNSDevice, GCMDevice

from tests.notices.test_native_push import APNS_TOKEN, FCM_TOKEN

pytestmark = pytest.mark.django_db

PATH = "/api/v1/push/devices/"
#: An FCM registration token as Firebase hands one out today (162 characters).
REAL_FCM = (
    "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx9ZSmE_4rFqLrRxWd7EO1d4Y3rT3Pc8uD0"
    "gWxG6-HbLk2s5eXyU0nZqA3bmTj8oP_QvR7wC1sKfE9hJ2uLdN4yI6tB0aM5pVxS3cG8eWzR1kO7qH9jY"
)


@pytest.mark.parametrize(
    ("platform", "token"),
    [
        ("apns", "ab" * 32 + "cd"),  # 66 digits
        ("apns", "ab" * 64),  # 128
        ("apns", "ab" * 31 + "c"),  # 63
        ("apns", "ab" * 32 + "\n"),
        ("apns", " " + "ab" * 32),
        ("apns", "0x" + "ab" * 31),
        ("fcm", "n" * 40),  # too short for a registration token
        ("fcm", "n" * 99),
        ("fcm", "n" * 1025),
        ("fcm", FCM_TOKEN + "\n"),
        ("fcm", FCM_TOKEN + " "),
        ("fcm", "https://fcm.googleapis.com/fcm/send/" + "n" * 100),
        ("fcm", "n" * 100 + "/../x"),
        ("fcm", "n" * 100 + ".x"),
        ("fcm", "ñ" * 120),
        ("fcm", "٣" * 120),  # Arabic-Indic digits
    ],
)
def test_a_token_not_of_its_platforms_shape_is_refused(
    api_client_for, alice, fcm, apns, platform, token
):
    answer = api_client_for(alice).post(PATH, {"platform": platform, "token": token}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), answer.content
    assert answer.json()["fields"] == {
        "token": [f"No es un token de dispositivo {platform.upper()}."]
    }
    assert not GCMDevice.objects.exists() and not APNSDevice.objects.exists()


@pytest.mark.parametrize("platform", ["FCM", "APNS", "gcm", "wns", "web", " fcm", "fcm ", ""])
def test_the_platform_is_one_of_the_two_as_written(api_client_for, alice, fcm, apns, platform):
    answer = api_client_for(alice).post(
        PATH, {"platform": platform, "token": FCM_TOKEN}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), answer.content
    assert list(answer.json()["fields"]) == ["platform"]
    assert not GCMDevice.objects.exists() and not APNSDevice.objects.exists()


@pytest.mark.parametrize(
    ("platform", "token", "kept"),
    [
        ("fcm", REAL_FCM, REAL_FCM),
        ("fcm", FCM_TOKEN, FCM_TOKEN),
        ("fcm", "n" * 1024, "n" * 1024),
        ("apns", APNS_TOKEN, APNS_TOKEN),
        ("apns", "ABCDEF0123456789" * 4, "abcdef0123456789" * 4),
    ],
)
def test_real_tokens_are_taken(api_client_for, alice, fcm, apns, platform, token, kept):
    answer = api_client_for(alice).post(PATH, {"platform": platform, "token": token}, format="json")
    assert answer.status_code == 201, answer.content
    model = GCMDevice if platform == "fcm" else APNSDevice
    assert model.objects.get(user=alice).registration_id == kept
