"""New usernames (issue: tester's findings): the refusal of a bad name is the site's own
Spanish in "tú" (Django's catalogue said "Introduza…"), with its English; and a name
with "@" is refused, so nobody signs up as someone else's e-mail address. Both on the
sign-up page and in the sign-up API."""

import pytest
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils import translation

from accounts.models import User
from tests.support.signup import NEWBIE, signup_api, signup_page

pytestmark = pytest.mark.django_db

BAD_ES = "Escribe un nombre de usuario válido: solo letras, números y los signos . + - _."
BAD_EN = "Enter a valid username: only letters, numbers and the signs . + - _."
AT_ES = (
    "El nombre de usuario no puede llevar @: los demás jugadores lo ven, y no debe parecer "
    "una dirección de correo."
)
AT_EN = (
    "A username cannot contain @: other players see it, and it must not look like an "
    "e-mail address."
)


def _errors(html: str) -> str:
    """The page's error text with Django's HTML escaping of quotes undone."""
    return html.replace("&#x27;", "'")


@pytest.mark.parametrize(("language", "message"), [("es", BAD_ES), ("en", BAD_EN)])
def test_the_page_refuses_a_bad_username_in_the_sites_words(client, language, message):
    r = signup_page(client, "bad name!", HTTP_ACCEPT_LANGUAGE=language)

    assert r.status_code == 400
    page = _errors(r.content.decode())
    assert message in page
    assert "Introduza" not in page and "Introduzca" not in page
    assert not User.objects.filter(email=NEWBIE).exists()


@pytest.mark.parametrize(("language", "message"), [("es", BAD_ES), ("en", BAD_EN)])
def test_the_api_refuses_a_bad_username_in_the_sites_words(anonymous_client, language, message):
    r = signup_api(anonymous_client, "bad name!", HTTP_ACCEPT_LANGUAGE=language)

    assert r.status_code == 400
    assert r.json()["fields"]["username"] == [message]
    assert not User.objects.filter(email=NEWBIE).exists()


@pytest.mark.parametrize(("language", "message"), [("es", AT_ES), ("en", AT_EN)])
def test_the_page_refuses_an_email_address_as_username(client, carol, language, message):
    r = signup_page(client, "carol@example.com", HTTP_ACCEPT_LANGUAGE=language)

    assert r.status_code == 400
    assert message in _errors(r.content.decode())
    assert list(User.objects.values_list("username", flat=True)) == ["carol"]


@pytest.mark.parametrize(("language", "message"), [("es", AT_ES), ("en", AT_EN)])
def test_the_api_refuses_an_email_address_as_username(anonymous_client, carol, language, message):
    r = signup_api(anonymous_client, "carol@example.com", HTTP_ACCEPT_LANGUAGE=language)

    assert r.status_code == 400
    assert r.json()["fields"]["username"] == [message]
    assert list(User.objects.values_list("username", flat=True)) == ["carol"]


def test_a_fullwidth_at_sign_is_refused_too(anonymous_client, carol):
    # NFKC (accounts.adapter) makes "＠" an "@" before the rules run.
    r = signup_api(anonymous_client, "carol＠example.com")

    assert r.status_code == 400
    assert r.json()["fields"]["username"] == [AT_ES]
    assert User.objects.count() == 1


def test_a_name_without_at_still_signs_up(anonymous_client):
    r = signup_api(anonymous_client, "carol.example-com_2+x")

    assert r.status_code == 201, r.content
    assert User.objects.filter(username="carol.example-com_2+x").exists()


def test_an_existing_name_with_at_is_untouched(django_user_model):
    """The model's own validator (the admin's) still allows "@": old accounts stay valid,
    and its Spanish message is the site's, not Django's "Introduza…"."""
    user = django_user_model.objects.create_user(
        username="old@example.com", email="old@example.com", password="a-long-pass-phrase"
    )
    user.full_clean()

    with translation.override("es"):
        message = str(UnicodeUsernameValidator.message)
    assert message == (
        "Escribe un nombre de usuario válido: solo letras, números y los signos @ . + - _."
    )
