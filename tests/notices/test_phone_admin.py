"""The moderators' admin of the native apps' phones: mod (the "Moderadores" group, not a
superuser) sees whose phone, its name and the token's last 6 characters, never the whole
token; nothing can be added, changed, deleted or sent from it, and the library's own
admin (which shows tokens and sends test pushes) is gone. mallory, no staff, sees
nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.test import Client
from push_notifications.models import APNSDevice, GCMDevice, WebPushDevice, WNSDevice

from notices import devices
from notices.admin import DeviceAdmin
from tests.conftest import _make_user
from tests.moderation.conftest import moderators_group

pytestmark = pytest.mark.django_db

FCM_TOKEN = "fcm-token-of-alice_" + "q" * 120 + "END123"
APNS_TOKEN = "cd" * 31 + "beef"


@pytest.fixture
def mod(django_user_model):
    user = _make_user(django_user_model, "mod", is_staff=True)
    user.groups.add(moderators_group())
    return Client(), user


def test_a_moderator_sees_alices_phones_without_their_tokens(mod, alice, mallory):
    client, user = mod
    client.force_login(user)
    phone = devices.register(user=alice, platform="fcm", token=FCM_TOKEN, name="Pixel")
    iphone = devices.register(user=alice, platform="apns", token=APNS_TOKEN, name="iPhone")
    for model, device, token in (
        ("gcmdevice", phone, FCM_TOKEN),
        ("apnsdevice", iphone, APNS_TOKEN),
    ):
        listing = client.get(f"/admin/push_notifications/{model}/")
        page = client.get(f"/admin/push_notifications/{model}/{device.pk}/change/")
        for answer in (listing, page):
            assert answer.status_code == 200
            html = answer.content.decode()
            assert f"…{token[-6:]}" in html and "alice" in html
            assert token not in html and token[:20] not in html
        assert 'name="_save"' not in page.content.decode()
        deleted = client.post(f"/admin/push_notifications/{model}/{device.pk}/delete/")
        assert deleted.status_code == 403
        sent = client.post(
            f"/admin/push_notifications/{model}/",
            {"action": "send_message", "_selected_action": [device.pk]},
        )
        assert sent.status_code in (200, 302)  # no such action: nothing happens
        assert client.get(f"/admin/push_notifications/{model}/add/").status_code == 403
    assert GCMDevice.objects.count() == 1 and APNSDevice.objects.count() == 1

    # A token search would spell a token out: only people and names are searched.
    assert (
        client.get("/admin/push_notifications/gcmdevice/?q=fcm-token")
        .content.decode()
        .count("…END123")
        == 0
    )
    assert "…END123" in client.get("/admin/push_notifications/gcmdevice/?q=alice").content.decode()

    stranger = Client()
    stranger.force_login(mallory)
    assert stranger.get("/admin/push_notifications/gcmdevice/").status_code == 302


def test_only_the_read_only_admins_are_registered():
    for model in (GCMDevice, APNSDevice):
        assert isinstance(admin.site._registry[model], DeviceAdmin)
    assert not admin.site.is_registered(WebPushDevice) and not admin.site.is_registered(WNSDevice)


SPANISH = ("Usuario", "Nombre", "Token", "Activo", "Registrado")
ENGLISH = ("User", "Name", "Token", "Active", "Registered")
LIBRARY = ("Is active", "Creation date", "APNS device")  # the library's own words


def _field_labels(html: str) -> list[str]:
    """The change page's field labels, in page order."""
    return re.findall(r"<label>([^<]+):</label>", html)


def _column_headers(html: str) -> list[str]:
    """The listing's column headers, in page order."""
    results = html[html.index('id="result_list"') :]
    return re.findall(r'<div class="text">(?:<a [^>]*>|<span>)([^<]+)<', results)


@pytest.mark.parametrize(("language", "words"), [("es", SPANISH), ("en", ENGLISH)])
def test_the_phone_admin_speaks_the_staff_users_language(mod, alice, language, words):
    """mod reads the phones' listing and pages in their own language: the admin's own
    labels, not the library's English ("Is active", "Creation date", "FCM device"); the
    owner still links to their user page."""
    client, user = mod
    user.language = language
    user.save()
    client.force_login(user)
    phone = devices.register(user=alice, platform="fcm", token=FCM_TOKEN, name="Pixel")
    iphone = devices.register(user=alice, platform="apns", token=APNS_TOKEN, name="iPhone")
    absent = (*LIBRARY, "FCM device") if language == "es" else LIBRARY
    for model, device in (("gcmdevice", phone), ("apnsdevice", iphone)):
        page = client.get(f"/admin/push_notifications/{model}/{device.pk}/change/").content
        listing = client.get(f"/admin/push_notifications/{model}/").content
        assert _field_labels(page.decode()) == list(words)
        assert f'href="/admin/accounts/user/{alice.pk}/change/">alice</a>' in page.decode()
        assert _column_headers(listing.decode()) == list(words)
        for html in (page.decode(), listing.decode()):
            assert not [text for text in absent if text in html], model
    index = client.get("/admin/").content.decode()
    if language == "es":
        assert "Dispositivos FCM" in index and "Dispositivos APNs" in index
        filters = client.get("/admin/push_notifications/gcmdevice/").content.decode()
        assert "Por activo" in filters
    else:
        assert "FCM devices" in index and "APNs devices" in index
