"""New usernames that would pass for someone else (tester's findings): a name mixing
scripts ("аlice" with a Cyrillic "а"), a look-alike of an existing name, a bot's name
("Nino", "nino_ii") and a name too long for the pages are refused, on the sign-up page
and in the sign-up API alike (``accounts.validators``), and nothing is created."""

import re

import pytest

from accounts.models import User, username_skeleton
from tests.support.signup import LOOK_ALIKE_ES, NEWBIE, PAGE, signup_api, signup_page

MIXED_ES = (
    "El nombre de usuario mezcla alfabetos (por ejemplo, letras latinas con cirílicas o "
    "griegas): escríbelo en uno solo, para que nadie lo confunda con otro."
)
BOT_ES = (
    "Ese nombre es el de uno de los bots del sitio: elige otro, para que nadie te tome por un bot."
)
BOT_EN = "That name is one of the site's bots: choose another, so that nobody takes you for a bot."
LONG_ES = "El nombre de usuario puede tener como mucho 30 caracteres (este tiene 31)."


def _refused(response) -> list[str]:
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "invalid"
    assert not User.objects.filter(email=NEWBIE).exists()
    return body["fields"]["username"]


@pytest.mark.django_db
def test_a_name_mixing_latin_and_cyrillic_is_refused(anonymous_client, alice):
    assert _refused(signup_api(anonymous_client, "\u0430lice")) == [MIXED_ES]
    assert _refused(signup_api(anonymous_client, "b\u03bfb")) == [MIXED_ES]  # Greek omicron


@pytest.mark.django_db
def test_the_page_refuses_the_cyrillic_alice_too(client, alice):
    r = signup_page(client, "\u0430lice")

    assert r.status_code == 400
    assert MIXED_ES in r.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("abe", "\u0391\u0392\u0395"),
        ("ace", "\u0430\u0441\u0435"),
        ("alice", "a1ice"),
        ("bob", "B0B"),
    ],
)
def test_a_look_alike_of_an_existing_name_is_refused(
    anonymous_client, django_user_model, existing, new
):
    django_user_model.objects.create_user(username=existing, password="x-long-pass-phrase")

    assert _refused(signup_api(anonymous_client, new)) == [LOOK_ALIKE_ES]
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_an_existing_look_alike_refuses_the_latin_name_too(anonymous_client, django_user_model):
    django_user_model.objects.create_user(username="\u0430\u0441\u0435", password="x-pass-phrase")

    assert _refused(signup_api(anonymous_client, "ace")) == [LOOK_ALIKE_ES]


@pytest.mark.django_db
def test_the_same_name_in_another_case_is_still_taken_not_a_look_alike(anonymous_client, alice):
    assert _refused(signup_api(anonymous_client, "ALICE")) == [
        "Ya existe un usuario con este nombre."
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "Nino",
        "nino",
        "NINO",
        "Nino_II",
        "nino.iii",
        "Nino2",
        "N1no",
        "\u039d\u0399\u039d\u039f",  # Greek capitals
        "Garabato",
        "garabato-IV",
        "Abuela_Quelonia",
        "AbuelaQuelonia",
        "quelonia",
        "Ni\u00f1o",  # "Niño" beside "Nino (bot)"
        "ni\u00f1o",
        "Garab\u00e1to",
    ],
)
def test_a_bots_name_is_refused(anonymous_client, name):
    assert _refused(signup_api(anonymous_client, name)) == [BOT_ES]


@pytest.mark.django_db
def test_a_bots_name_is_refused_in_english_and_on_the_page(client, anonymous_client):
    assert _refused(signup_api(anonymous_client, "nino", HTTP_ACCEPT_LANGUAGE="en")) == [BOT_EN]

    r = signup_page(client, "Garabato")
    assert r.status_code == 400
    assert BOT_ES in r.content.decode().replace("&#x27;", "'")
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "Ninoska",
        "Nina",
        "Ni\u00f1a",
        "Jos\u00e9",
        "\u0414\u043c\u0438\u0442\u0440\u0438\u0439",
        "\u3084\u307e\u3060\u592a\u90ce",
        "user_42",
        "a" * 30,
    ],
)
def test_names_of_one_script_sign_up(anonymous_client, name):
    r = signup_api(anonymous_client, name)

    assert r.status_code == 201, r.content
    user = User.objects.get()
    assert user.username == name
    assert user.username_skeleton == username_skeleton(name)


@pytest.mark.django_db
def test_a_name_longer_than_30_characters_is_refused(client, anonymous_client):
    assert _refused(signup_api(anonymous_client, "a" * 31)) == [LONG_ES]

    r = signup_page(client, "b" * 150)
    assert r.status_code == 400
    assert "como mucho 30 caracteres (este tiene 150)" in r.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_the_sign_up_field_stops_at_30_characters(client):
    page = client.get(PAGE).content.decode()

    assert re.search(r'<input[^>]*name="username"[^>]*maxlength="30"', page)
