"""What the account e-mails and the password pages say. After a reset with the mailed link
the security e-mail's subject read "Recuperar la contraseña" (the reset page's title): now
"Tu contraseña ha cambiado", and so does a change's (it read "Contraseña cambiada"). Its
"Fecha: 4 de marzo de 2030 a las 09:30" gave UTC's time and no zone: now the player's
time, zone named ("(hora de America/Havana)", "(hora UTC)" while they have none). The
verification e-mail read "La cuenta alice de Dominó ha dado este correo."; the reset and
change forms' labels ended in ":" ("Contraseña nueva:"), unlike the site's other forms."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.core import mail

from notices.models import NoticePreferences
from tests.conftest import PASSWORD
from tests.support.clock import T0  # 09:30 UTC, 04:30 in Havana (UTC-5 until 10 March)
from tests.support.mail import confirm_link, mails_to
from tests.support.signup import NEWBIE, signup_page

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-pass-phrase"


def _labels(response) -> list[str]:
    return re.findall(r"<label[^>]*>\s*(.*?)\s*</label>", response.content.decode(), re.S)


def test_a_reset_says_the_password_changed_and_when_in_the_players_zone(client, alice):
    NoticePreferences.objects.create(user=alice, time_zone="America/Havana", time_zone_chosen=True)
    with time_machine.travel(T0, tick=False):
        client.post("/accounts/password/reset/", {"email": "alice@example.com"})
        (link,) = mails_to("alice@example.com")
        path = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", link.body)[1]
        form_page = client.get(path, follow=True)
        assert _labels(form_page)[-2:] == ["Contraseña nueva", "Repite la contraseña nueva"]
        mail.outbox.clear()
        set_path = form_page.redirect_chain[-1][0]
        done = client.post(set_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    (message,) = mails_to("alice@example.com")
    assert message.subject == "Dominó · Tu contraseña ha cambiado"
    assert "Fecha: 4 de marzo de 2030 a las 04:30 (hora de America/Havana)" in message.body


def test_a_change_says_the_password_changed_and_when_in_the_players_zone(client, alice):
    """The change's subject read "Contraseña cambiada" where the reset's reads "Tu
    contraseña ha cambiado": now the same words, and the time in the player's zone."""
    NoticePreferences.objects.create(user=alice, time_zone="America/Havana", time_zone_chosen=True)
    with time_machine.travel(T0, tick=False):
        client.force_login(alice)
        mail.outbox.clear()
        client.post(
            "/accounts/password/change/",
            {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        )
    (message,) = mails_to("alice@example.com")
    assert message.subject == "Dominó · Tu contraseña ha cambiado"
    assert "Fecha: 4 de marzo de 2030 a las 04:30 (hora de America/Havana)" in message.body


@pytest.mark.parametrize(
    ("player", "said", "subject"),
    [
        ("alice", "Fecha: 4 de marzo de 2030 a las 09:30 (hora UTC)", "Tu contraseña ha cambiado"),
        ("carol", "Date: March 4, 2030, 9:30 a.m. (UTC)", "Your password has changed"),
    ],
)
def test_a_change_without_a_zone_says_utc(client, request, player, said, subject):
    user = request.getfixturevalue(player)
    with time_machine.travel(T0, tick=False):  # signed in then: the session is fresh
        client.force_login(user)
        assert ":" not in "".join(_labels(client.get("/accounts/password/change/"))[1:])
        mail.outbox.clear()
        client.post(
            "/accounts/password/change/",
            {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        )
    (message,) = mails_to(user.email)
    assert said in message.body, message.body
    assert message.subject == f"Dominó · {subject}"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "Alguien ha creado la cuenta newbie en Dominó con este correo. Para verificarlo"),
        ("en", "Someone created the account newbie on Dominó with this e-mail address. To"),
    ],
)
def test_the_sign_up_link_says_someone_created_the_account(client, language, said):
    signup_page(client, "newbie", HTTP_ACCEPT_LANGUAGE=language)
    confirm_link(NEWBIE)
    (message,) = mails_to(NEWBIE)
    assert said in " ".join(message.body.split()), message.body


def test_an_added_address_gets_its_own_words(api_client_for, bob):
    api_client_for(bob).post("/api/v1/accounts/email/", {"email": "bob.new@example.com"})
    (message,) = mails_to("bob.new@example.com")
    assert "Alguien ha dado este correo a la cuenta bob de Dominó." in message.body
