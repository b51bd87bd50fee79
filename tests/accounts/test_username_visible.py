"""A username must hold a letter or digit a reader sees, read as the talk reads a message
(``core.visible_text``, after NFKC): the Hangul fillers (U+3164, U+115F, U+1160, U+FFA0)
count as letters for Django's username characters and made invisible players; the blank
Braille cell, zero-width characters and lone combining marks are refused too. On the
sign-up page, the sign-up API and the admin's user forms (the only renaming there is:
``PATCH /api/v1/me/`` keeps the name)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD
from tests.support.signup import NEWBIE, signup_api, signup_page

pytestmark = pytest.mark.django_db

INVISIBLE_ES = "El nombre de usuario tiene que llevar al menos una letra o una cifra que se vea."
INVISIBLE_EN = "A username must contain at least one letter or digit that can be seen."

INVISIBLE = {
    "hangul_filler": "\u3164",
    "choseong_filler": "\u115f",
    "jungseong_filler": "\u1160",
    "both_fillers": "\u115f\u1160",
    "halfwidth_filler": "\uffa0",
    "three_fillers": "\u3164\u3164\u3164",
    "braille_blank": "\u2800",
    "zero_width_space": "\u200b",
    "zero_width_non_joiner": "\u200c",
    "zero_width_joiner": "\u200d",
    "byte_order_mark": "\ufeff",
    "lone_acute": "\u0301",
    "lone_marks": "\u0301\u0302\u0308",
    "filler_and_mark": "\u3164\u0301",
    "signs_only": "._-",
    "filler_and_sign": "_\u3164",
}
#: Names the new rule keeps: Korean, a decomposed accent on its letter, digits, a filler
#: inside a name with letters.
VISIBLE = ["한글", "Jose\u0301", "007", "ana\u3164b"]


@pytest.mark.parametrize("name", list(INVISIBLE.values()), ids=list(INVISIBLE))
def test_the_api_refuses_an_invisible_name(anonymous_client, name):
    answer = signup_api(anonymous_client, name)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid"
    assert answer.json()["fields"]["username"]
    assert not User.objects.filter(email=NEWBIE).exists()


@pytest.mark.parametrize("name", list(INVISIBLE.values()), ids=list(INVISIBLE))
def test_the_page_refuses_an_invisible_name(client, name):
    answer = signup_page(client, name)
    assert answer.status_code == 400
    assert answer.context["form"].errors["username"]
    assert not User.objects.filter(email=NEWBIE).exists()


@pytest.mark.parametrize("name", ["\u3164", "\u115f\u1160", "\uffa0", "\u3164\u3164"])
def test_the_fillers_get_the_rules_sentence(client, anonymous_client, name):
    """A filler passes Django's characters rule, so this sentence is the one said."""
    assert signup_api(anonymous_client, name).json()["fields"]["username"] == [INVISIBLE_ES]
    english = signup_api(anonymous_client, name, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["fields"]["username"] == [INVISIBLE_EN]
    assert signup_page(client, name).context["form"].errors["username"] == [INVISIBLE_ES]


@pytest.mark.parametrize("name", VISIBLE)
def test_a_visible_name_is_taken(anonymous_client, name):
    answer = signup_api(anonymous_client, name)
    assert answer.status_code == 201, answer.json()


def test_the_profile_keeps_the_name(api_client_for, alice):
    answer = api_client_for(alice).patch("/api/v1/me/", {"username": "\u3164"}, format="json")
    assert answer.status_code == 200
    alice.refresh_from_db()
    assert alice.username == "alice"


@pytest.fixture
def root_admin(django_user_model) -> Client:
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(root)
    return client


def test_the_admin_does_not_rename_to_an_invisible_name(root_admin, alice):
    page = root_admin.get(f"/admin/accounts/user/{alice.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(
        username="\u3164",
        date_joined_0=alice.date_joined.strftime("%Y-%m-%d"),
        date_joined_1=alice.date_joined.strftime("%H:%M:%S"),
        language="es",
        pip_colour=alice.pip_colour,
    )
    data.pop("groups", None)
    data.pop("user_permissions", None)
    data.pop("password", None)
    data.pop("date_joined", None)
    data.pop("last_login", None)
    answer = root_admin.post(f"/admin/accounts/user/{alice.pk}/change/", data)
    assert answer.status_code == 200
    assert INVISIBLE_ES in answer.content.decode()
    alice.refresh_from_db()
    assert alice.username == "alice"


def test_the_admin_does_not_add_an_invisible_name(root_admin):
    answer = root_admin.post(
        "/admin/accounts/user/add/",
        {
            "username": "\u115f\u1160",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert answer.status_code == 200
    assert INVISIBLE_ES in answer.content.decode()
    assert not User.objects.filter(username="\u115f\u1160").exists()
