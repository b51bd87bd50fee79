"""The moderators' admin of the native apps' phones in a real browser: mod (the
"Moderadores" group, not a superuser) lists alice's phones and opens one; the token shows
by its last 6 characters only and there is no save or delete button. Screenshots at
1280x800 and 390x844 go to artifacts/."""

from __future__ import annotations

import pytest

from notices import devices
from tests.conftest import PASSWORD
from tests.moderation.conftest import moderators_group
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in

pytestmark = BROWSER_MARKS

TOKEN = "alice-pixel-token_" + "k" * 140 + "Zq9X2w"


@pytest.fixture
def people(django_user_model):
    made = {
        name: django_user_model.objects.create_user(username=name, password=PASSWORD)
        for name in ("alice", "mod")
    }
    made["mod"].is_staff = True
    made["mod"].save()
    made["mod"].groups.add(moderators_group())
    return made


def test_a_moderator_sees_the_phones_without_their_tokens(live_server, new_page, people):
    base = live_server.url
    phone = devices.register(user=people["alice"], platform="fcm", token=TOKEN, name="Pixel")
    devices.register(user=people["alice"], platform="apns", token="ef" * 32, name="iPhone")
    mod = signed_in(new_page, base, "mod")
    mod.set_viewport_size(DESKTOP)
    mod.goto(f"{base}/admin/")
    assert "dispositivos móviles" in mod.inner_text("#content").lower()
    mod.goto(f"{base}/admin/push_notifications/gcmdevice/")
    listing = mod.inner_text("#result_list")
    assert "alice" in listing and "…Zq9X2w" in listing and TOKEN not in mod.content()
    shot(mod, "admin-phones-desktop", DESKTOP)
    shot(mod, "admin-phones-phone", PHONE)
    mod.set_viewport_size(DESKTOP)
    mod.goto(f"{base}/admin/push_notifications/gcmdevice/{phone.pk}/change/")
    assert "…Zq9X2w" in mod.inner_text("#content") and TOKEN not in mod.content()
    assert mod.locator("input[name=_save], a.deletelink").count() == 0
    shot(mod, "admin-phone-desktop", DESKTOP)
    shot(mod, "admin-phone-phone", PHONE)
