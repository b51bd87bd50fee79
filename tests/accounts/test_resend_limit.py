"""The "Enviar el enlace otra vez" button says when the link can be mailed again. allauth
mails it at most once every 3 minutes per address (``ACCOUNT_RATE_LIMITS["confirm_email"]``)
and, asked sooner, sent nothing and said nothing: the page came back as it was, and the
player pressed again, and again. Now the page says the limit ("Puedes pedirlo una vez
cada 3 minutos."), what is left of it after a link went out ("Puedes pedirlo otra vez
dentro de 3 minutos."), and a press inside it is answered in words, sending nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.core import mail

from tests.support.clock import T0
from tests.support.mail import mails_to
from tests.support.signup import NEWBIE, signup_page

pytestmark = pytest.mark.django_db

PAGE = "/accounts/email/"


@pytest.fixture
def unverified(alice):
    EmailAddress.objects.filter(user=alice).update(verified=False)
    return alice


def _said(client) -> str:
    page = client.get(PAGE).content.decode()
    found = re.search(r'<small id="resend-limit">(.*?)</small>', page)
    return found[1] if found else ""


def _resend(client, email: str):
    return client.post(PAGE, {"action_send": "", "email": email}, follow=True)


def test_the_page_says_the_limit_then_what_is_left_of_it(client, unverified):
    with time_machine.travel(T0, tick=False) as clock:  # signed in then: the session is fresh
        client.force_login(unverified)
        assert _said(client) == "Puedes pedirlo una vez cada 3 minutos."
        _resend(client, unverified.email)
        assert len(mails_to(unverified.email)) == 1
        assert _said(client) == "Puedes pedirlo otra vez dentro de 3 minutos."

        clock.move_to(T0 + timedelta(seconds=100))
        again = _resend(client, unverified.email)
        assert len(mails_to(unverified.email)) == 1  # nothing sent inside the limit
        page = again.content.decode()
        assert (
            "Ya te enviamos el enlace hace poco y sigue valiendo. Puedes pedirlo otra vez "
            "dentro de 2 minutos."
        ) in page
        assert _said(client) == "Puedes pedirlo otra vez dentro de 2 minutos."

        clock.move_to(T0 + timedelta(seconds=150))
        assert _said(client) == "Puedes pedirlo otra vez dentro de 1 minuto."

        clock.move_to(T0 + timedelta(seconds=181))
        assert _said(client) == "Puedes pedirlo una vez cada 3 minutos."
        _resend(client, unverified.email)
        assert len(mails_to(unverified.email)) == 2


def test_after_signing_up_the_link_just_sent_counts(client):
    with time_machine.travel(T0, tick=False):
        signup_page(client, "newbie")
        assert len(mail.outbox) == 1
        assert _said(client) == "Puedes pedirlo otra vez dentro de 3 minutos."


def test_in_english(client, carol):
    EmailAddress.objects.filter(user=carol).update(verified=False)
    client.cookies["django_language"] = "en"
    with time_machine.travel(T0, tick=False):
        client.force_login(carol)
        assert _said(client) == "You can ask for it once every 3 minutes."
        _resend(client, carol.email)
        answer = _resend(client, carol.email).content.decode()
        assert "You can ask for it again in 3 minutes." in answer
        assert len(mails_to(carol.email)) == 1


def test_a_verified_address_has_no_button_and_no_limit_to_tell(client, alice):
    client.force_login(alice)
    page = client.get(PAGE).content.decode()
    assert "Enviar el enlace otra vez" not in page and "resend-limit" not in page


def test_mallory_cannot_have_a_link_sent_for_someone_elses_address(client, mallory, unverified):
    client.force_login(mallory)
    _resend(client, unverified.email)
    assert mails_to(unverified.email) == [] and mails_to(NEWBIE) == []
