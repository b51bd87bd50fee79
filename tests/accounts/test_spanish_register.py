"""The account pages and mails speak to the player with "tú", as the rest of the site
does: django-allauth's and Django's own Spanish ("usted", Title Case) is replaced by the
catalogue in locale/es/ (found first through LOCALE_PATHS)."""

import re
from html import unescape

import pytest
from django.core import mail

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

#: Words of the "usted" register (and the libraries' Title Case) that must not reach a player.
USTED = re.compile(
    r"\b(su|sus|usted|Introduzca|Verifique|verifique|compruebe|póngase|contáctenos|"
    r"solicite|Ha olvidado|Restablecer Contraseña|Ya ha iniciado|Siga|vuelva)\b"
)


def visible_text(response) -> str:
    """The text inside <main>, tags dropped, whitespace folded."""
    page = response.content.decode()
    main = page.split("<main", 1)[-1].split("</main>", 1)[0]
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


SIGNED_OUT = {
    "/accounts/password/reset/": "¿Olvidaste la contraseña? Escribe tu correo",
    "/accounts/password/reset/done/": "te hemos enviado un enlace",
    "/accounts/confirm-email/": "Verifica tu correo",
    "/accounts/password/reset/key/1-x/": "quizá ya lo usaste",
    "/accounts/inactive/": "Esta cuenta está desactivada.",
}
SIGNED_IN = {
    "/accounts/password/change/": "Tu contraseña no puede tener solo números.",
    "/accounts/reauthenticate/": "vuelve a escribir tu contraseña",
    "/accounts/password/reset/": "Ya has entrado como alice.",
}


@pytest.mark.parametrize("url, expected", SIGNED_OUT.items())
def test_signed_out_account_pages_say_tu(client, url, expected):
    text = visible_text(client.get(url))

    assert expected in text
    assert not USTED.search(text), USTED.search(text)


@pytest.mark.parametrize("url, expected", SIGNED_IN.items())
def test_signed_in_account_pages_say_tu(client, alice, url, expected):
    client.force_login(alice)

    text = visible_text(client.get(url))

    assert expected in text
    assert not USTED.search(text), USTED.search(text)


def test_english_is_untouched(client):
    text = visible_text(client.get("/accounts/password/reset/", HTTP_ACCEPT_LANGUAGE="en"))

    assert "Forgotten your password? Enter your email address below" in text


def test_the_password_changed_mail_says_tu(client, alice):
    client.force_login(alice)
    mail.outbox.clear()

    client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "otra-clave-9931", "password2": "otra-clave-9931"},
    )

    assert [message.subject for message in mail.outbox] == ["Dominó · Tu contraseña ha cambiado"]
    body = mail.outbox[0].body
    assert "Te escribimos porque en tu cuenta se ha hecho este cambio" in body
    assert "Tu contraseña ha cambiado." in body
    assert not USTED.search(body), USTED.search(body)
