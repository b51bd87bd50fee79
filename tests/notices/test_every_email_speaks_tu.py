"""Every e-mail the site sends, in Spanish, speaks "tú", starts its subject "Dominó · " and
names itself in its HTML's <title>. Before: allauth's "La cuenta ya existe" e-mail said
"Usted está recibiendo este correo… recuperar su cuenta", its "Cuenta desconocida" one
"Si ha sido usted, puede registrarse"; the notices' e-mails (turn, reminder, end of the
match, rematch) had no "Dominó · " before their subjects and an empty <title>.

Two layers: every allauth e-mail template rendered in Spanish (those the site sends and
those it could, such as the sign-in code), and every e-mail a player is really sent,
from the flows that send them (sign-up, an added address, a reset asked and done, a
password changed, an address already taken, an unknown one; a turn, a reminder, a
match's end, a rematch)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import allauth
import pytest
from django.core import mail
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from notices import email as notice_email
from notices import services as notices
from tables import services
from tests.conftest import PASSWORD
from tests.support.clock import T0
from tests.support.database import fresh
from tests.support.mail import RESET_LINK
from tests.support.pages import play_first_moves, seat_friends
from tests.support.signup import signup_page

pytestmark = pytest.mark.django_db

#: The formal register ("usted", "su cuenta", "Introdúzcalo", "puede registrarse").
FORMAL = re.compile(
    r"\b(usted|ustedes|su|sus|suyo|suya|introdúzcalo|utilice|haya olvidado|puede registrarse)\b",
    re.IGNORECASE,
)
PREFIX = "Dominó · "
TEMPLATES = Path(allauth.__file__).parent / "templates" / "account" / "email"


def _words(message) -> str:
    """The subject, the text and the HTML (if any) of ``message``."""
    html = "".join(body for body, _mimetype in getattr(message, "alternatives", []))
    return "\n".join((message.subject, message.body, html))


def _title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    return found[1].strip() if found else ""


def _check(message) -> None:
    assert message.subject.startswith(PREFIX), message.subject
    assert len(message.subject) > len(PREFIX) + 3, message.subject
    formal = FORMAL.findall(_words(message))
    assert not formal, (formal, message.subject, message.body)
    for html, _mimetype in getattr(message, "alternatives", []):
        assert _title(html) == message.subject, html[:300]


@pytest.mark.parametrize("name", sorted(p.stem for p in TEMPLATES.glob("*.txt")))
def test_every_allauth_email_template_speaks_tu_in_spanish(name):
    context = {
        "user": SimpleNamespace(username="alice", email="alice@example.com"),
        "username": "alice",
        "email": "alice@example.com",
        "activate_url": "https://example.com/a/",
        "password_reset_url": "https://example.com/p/",
        "signup_url": "https://example.com/s/",
        "minutes": 60,
        "code": "XK3P9Q",
        "ip": "192.0.2.1",
        "user_agent": "Firefox",
        "timestamp": "4 de marzo de 2030 a las 09:30 (hora UTC)",
        "from_email": "old@example.com",
        "to_email": "new@example.com",
        "deleted_email": "old@example.com",
        "current_site": SimpleNamespace(name="Dominó", domain="example.com"),
    }
    with translation.override("es"):
        text = render_to_string(f"account/email/{name}.txt", context)
    formal = FORMAL.findall(text)
    assert not formal, (formal, text)
    assert not re.search(r"[A-Za-z]+ [a-z]+ (your|the|you)\b", text), text  # no English left


def test_the_account_emails_players_are_sent(client, alice, bob):
    """Sign-up, an address taken, an unknown address, an added one, a reset asked and
    done, a password changed: each e-mail in Spanish, "tú", "Dominó · …"."""
    signup_page(Client(), "newbie")  # a verification link to newbie@example.com
    signup_page(Client(), "copycat", email="alice@example.com")  # alice is told
    client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    client.post("/accounts/password/reset/", {"email": "bob@example.com"})
    key = RESET_LINK.search(mail.outbox[-1].body)
    assert key, mail.outbox[-1].body
    form = client.get(f"/accounts/password/reset/key/{key[1]}/", follow=True)
    set_path = form.redirect_chain[-1][0]
    done = client.post(
        set_path, {"password1": "a-new-pass-phrase", "password2": "a-new-pass-phrase"}
    )
    assert done.status_code == 302
    client.force_login(alice)
    client.post("/accounts/email/", {"action_add": "", "email": "alice.new@example.com"})
    client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "a-brand-new-pass", "password2": "a-brand-new-pass"},
    )
    subjects = [message.subject for message in mail.outbox]
    assert subjects == [
        "Dominó · Verifica tu correo",
        "Dominó · La cuenta ya existe",
        "Dominó · No hay ninguna cuenta con este correo",
        "Dominó · Elige una contraseña nueva",
        "Dominó · Tu contraseña ha cambiado",
        "Dominó · Verifica tu correo",
        "Dominó · Tu contraseña ha cambiado",
    ], subjects
    for message in mail.outbox:
        _check(message)


def test_the_notice_emails_players_are_sent(clock, alice, bob):
    """A turn, a reminder, the end of the match and the rematch offered, each mailed."""
    table = seat_friends(alice, [bob])
    away = T0 + timedelta(minutes=5)  # their presence from sitting down has run out
    later = away + timedelta(hours=1)
    clock.move_to(away)
    table = play_first_moves(table, [alice, bob], turns=1)  # the other's turn begins
    waiting = alice if table.turn_seat == 0 else bob
    assert notices.record_turn(table_id=table.pk, version=table.version, now=away)
    assert notices.record_reminder(table_id=table.pk, version=table.version, now=away)
    clock.move_to(later)
    assert notice_email.deliver(waiting.pk, now=later) == 2
    services.table_abandon(table_id=table.pk, user=alice)
    assert notices.record_match_over(table_id=table.pk, now=later)
    assert notice_email.deliver(bob.pk, now=later) == 1
    rematch = services.rematch_offer(table_id=table.pk, user=bob)
    assert notices.record_rematch_offered(table_id=rematch.pk, now=later)
    assert notice_email.deliver(alice.pk, now=later) == 2  # her match's end, the offer
    subjects = [message.subject for message in mail.outbox]
    assert subjects == [
        f"Dominó · Te toca jugar en la mesa {table.pk}",
        f"Dominó · Quedan menos de 24 horas para tu turno en la mesa {table.pk}",
        f"Dominó · ¡Has ganado la partida de la mesa {table.pk}!",
        f"Dominó · Terminó la partida de la mesa {table.pk}",
        f"Dominó · bob te propone la revancha en la mesa {fresh(rematch.pk).pk}",
    ], subjects
    for message in mail.outbox:
        _check(message)
        assert message.alternatives, message.subject  # each has its HTML
