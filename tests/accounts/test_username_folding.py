"""Look-alikes that only differ by accents, small capitals, width or mathematical letters
(a review of the look-alike sign-up rules): with ``alice`` signed up, ``ÁLICE``, ``Álice``,
``alicé`` and ``ᴀlice`` (a Latin small capital A) are refused as look-alikes and
``ａlice`` and ``𝐚lice`` as the same name, on the sign-up page and in the API; names that
really differ ("Ana" and "Anna", "José" without a "jose") still sign up."""

import re
import sys
import unicodedata

import pytest

from accounts.models import User, username_skeleton
from tests.support.signup import LOOK_ALIKE_ES, signup_api, signup_page

TAKEN_ES = "Ya existe un usuario con este nombre."
LOOK_ALIKE_EN = (
    "That name can be taken for another player's (it looks the same or nearly, with accents, "
    "letters of another alphabet or digits for letters): choose another."
)

ALICE_LOOK_ALIKES = [
    ("\u00c1LICE", LOOK_ALIKE_ES),  # ÁLICE
    ("\u00c1lice", LOOK_ALIKE_ES),  # Álice
    ("alic\u00e9", LOOK_ALIKE_ES),  # alicé
    ("A\u0301lice", LOOK_ALIKE_ES),  # A + combining acute: NFKC makes it Álice
    ("\u1d00lice", LOOK_ALIKE_ES),  # ᴀlice, LATIN LETTER SMALL CAPITAL A
    ("\u1d00\u029f\u026a\u1d04\u1d07", LOOK_ALIKE_ES),  # ᴀʟɪᴄᴇ, all small capitals
    ("\uff41lice", TAKEN_ES),  # ａlice, fullwidth: NFKC makes it alice
    ("\U0001d41alice", TAKEN_ES),  # 𝐚lice, mathematical bold: NFKC makes it alice
    ("\uff41\uff11ice", LOOK_ALIKE_ES),  # ａ１ice: NFKC makes it a1ice
]


def _page_errors(response) -> str:
    assert response.status_code == 400, response.status_code
    return response.content.decode().replace("&#x27;", "'")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "message"), ALICE_LOOK_ALIKES)
def test_the_api_refuses_alice_with_accents_small_capitals_or_wide_letters(
    anonymous_client, alice, name, message
):
    r = signup_api(anonymous_client, name)

    assert r.status_code == 400, r.content
    assert (r.json()["code"], r.json()["fields"]) == ("invalid", {"username": [message]})
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "message"), ALICE_LOOK_ALIKES)
def test_the_page_refuses_alice_with_accents_small_capitals_or_wide_letters(
    client, alice, name, message
):
    assert message in _page_errors(signup_page(client, name))
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_refusal_of_an_accented_alice_is_in_english_too(anonymous_client, alice):
    r = signup_api(anonymous_client, "\u00c1LICE", HTTP_ACCEPT_LANGUAGE="en")

    assert r.json()["fields"]["username"] == [LOOK_ALIKE_EN]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "new"),
    [("\u00c1lice", "alice"), ("\u1d00lice", "ALICE"), ("\u0299ob", "bob")],  # Álice, ᴀlice, ʙob
)
def test_an_accented_or_small_capital_name_refuses_the_plain_one(
    client, anonymous_client, django_user_model, existing, new
):
    django_user_model.objects.create_user(username=existing, password="x-long-pass-phrase")

    assert LOOK_ALIKE_ES in _page_errors(signup_page(client, new))
    r = signup_api(anonymous_client, new)
    assert (r.status_code, r.json()["fields"]) == (400, {"username": [LOOK_ALIKE_ES]})
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("anna", "Ana"),
        ("ana", "Anna"),
        ("josefa", "Jos\u00e9"),
        ("alice", "Alicia"),
    ],
)
def test_names_that_really_differ_still_sign_up(
    client, anonymous_client, django_user_model, existing, new
):
    django_user_model.objects.create_user(username=existing, password="x-long-pass-phrase")

    r = signup_api(anonymous_client, new)
    assert r.status_code == 201, r.content
    r = signup_page(client, f"{new}2", email="second@example.com")
    assert r.status_code == 302, r.content.decode()[-400:]
    assert User.objects.count() == 3


def _small_capitals():
    """Every Latin small capital of one letter in Unicode (``ᴀ``, ``ʙ``, ``ꜰ``, ``ꞯ``,
    their modifier forms ``ᶦ``…), with its letter, by the characters' names."""
    name = re.compile(r"(?:LATIN|MODIFIER) (?:CAPITAL )?LETTER SMALL CAPITAL ([A-Z])")
    for code in range(sys.maxunicode + 1):
        found = name.fullmatch(unicodedata.name(chr(code), ""))
        if found:
            yield chr(code), found[1].lower()


def test_every_latin_small_capital_looks_like_its_letter():
    pairs = list(_small_capitals())

    assert len(pairs) >= 25  # a to z but x, in Unicode 14
    unlike = {
        char: (username_skeleton(char), username_skeleton(letter))
        for char, letter in pairs
        if username_skeleton(char) != username_skeleton(letter)
    }
    assert unlike == {}
