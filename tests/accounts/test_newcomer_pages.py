"""A newcomer's first pages. The home page (signed out: the sign-in page) said what the
site is in a line above "Entrar" and offered an account only in a small "¿No tienes
cuenta? Crea una" under the form; signing out showed that page again without a word;
after choosing a new password with the mailed link, the page said so and led nowhere.
Now: a heading that says what the site is, "Crear cuenta" as a button beside the
sign-in (and under the welcome), "Cerraste la sesión." after signing out, and the reset's last
page leads to "Entrar"."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from tests.support.mail import RESET_LINK
from tests.support.pages import signed_in_client

pytestmark = pytest.mark.django_db


def _home_signed_out(client, **headers) -> str:
    return client.get("/", follow=True, **headers).content.decode()


def test_the_home_page_says_what_the_site_is_and_offers_an_account(client):
    page = _home_signed_out(client)
    assert '<h1 id="welcome-title">Dominó por correspondencia</h1>' in page
    assert "Juega con tus amigos o contra bots, cada uno a su ritmo" in page
    sign_in = re.search(
        r'<p class="actions">\s*<button type="submit" class="primary">Entrar</button>\s*(.*?)</p>',
        page,
        re.S,
    )
    assert sign_in, page
    assert '<a class="button" href="/accounts/signup/?next=/">Crear cuenta</a>' in sign_in[1]
    welcome = re.search(r'<section class="card welcome".*?</section>', page, re.S)[0]
    assert '<a class="button primary" href="/accounts/signup/?next=/">Crear cuenta</a>' in welcome


def test_in_english(client):
    page = _home_signed_out(client, HTTP_ACCEPT_LANGUAGE="en")
    assert "Correspondence dominoes</h1>" in page and ">Sign up</a>" in page


def test_signing_out_says_so(alice):
    client = signed_in_client(alice)
    page = client.post("/accounts/logout/", follow=True).content.decode()
    assert "Cerraste la sesión." in page
    assert "Cerraste la sesión." not in _home_signed_out(client)  # said once


def test_signing_out_in_english(carol):
    client = signed_in_client(carol)
    assert "You signed out." in client.post("/accounts/logout/", follow=True).content.decode()


def test_the_reset_done_page_leads_to_sign_in(client, alice):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    key = RESET_LINK.search(mail.outbox[-1].body)[1]
    form = client.get(f"/accounts/password/reset/key/{key}/", follow=True)
    done = client.post(
        form.redirect_chain[-1][0],
        {"password1": "a-new-pass-phrase", "password2": "a-new-pass-phrase"},
        follow=True,
    )
    page = done.content.decode()
    assert "Ya tienes tu contraseña nueva. Entra con ella." in page
    assert '<a class="button primary" href="/accounts/login/">Entrar</a>' in page
    signed_in = client.post("/accounts/login/", {"login": "alice", "password": "a-new-pass-phrase"})
    assert signed_in.status_code == 302
