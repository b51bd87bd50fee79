"""A suspended player on the pages that make tables: "Jugar ya contra los bots" answered
his click with a 500 (the service's 403 ``suspended`` went uncaught through
``tables.views.play_bots_now``) while "Crear la mesa" showed the suspension's sentence.
Now the click shows the "Nueva mesa" page with that sentence, and the pages do not offer
him the buttons: the home page's moderation notices, and the top of "Nueva mesa", say
why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from moderation.models import ModerationAction
from tables.models import Table
from tests.support.api import create_table, token_client

pytestmark = pytest.mark.django_db

SENTENCE = "Tu cuenta está suspendida hasta el"


@pytest.fixture
def suspended_dani(dani, mod):
    ModerationAction.objects.create(
        moderator=mod,
        user=dani,
        kind=ModerationAction.Kind.SUSPEND,
        reason="insultos",
        until=timezone.now() + timedelta(days=3),
    )
    return dani


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_play_bots_now_tells_a_suspended_dani_why_instead_of_a_500(suspended_dani):
    answer = _client(suspended_dani).post("/mesas/contra-los-bots/")

    assert answer.status_code == 403
    html = answer.content.decode()
    assert SENTENCE in html and 'role="alert"' in html
    assert html.count(SENTENCE) == 1
    assert not Table.objects.filter(creator=suspended_dani).exists()


def test_the_create_form_forced_while_suspended_is_the_documented_403(suspended_dani):
    """The form posted anyway (drawn before the suspension, or by hand) answered 400, as
    a wrong target; it is the 403 ``suspended`` the API's create answers, said once."""
    body = {"seats": 2, "target": 50, "seat_1": "nino"}
    answer = _client(suspended_dani).post("/mesas/nueva/", body)

    assert answer.status_code == 403
    html = answer.content.decode()
    assert html.count(SENTENCE) == 1 and 'role="alert"' in html
    assert not Table.objects.filter(creator=suspended_dani).exists()


def test_a_suspended_dani_is_not_offered_a_new_table(suspended_dani, alice):
    dani = _client(suspended_dani)
    home = dani.get("/").content.decode()
    assert "play-bots-now" not in home and 'href="/mesas/nueva/" class' not in home
    assert 'class="button primary" href="/mesas/nueva/"' not in home
    assert SENTENCE in home  # the moderation notices say why

    new = dani.get("/mesas/nueva/").content.decode()
    assert "play-bots-now" not in new
    assert SENTENCE in new and 'role="alert"' in new
    assert 'class="primary big" disabled' in new

    alice_home = _client(alice).get("/").content.decode()
    assert "play-bots-now" in alice_home
    assert 'class="button primary" href="/mesas/nueva/"' in alice_home
    alice_new = _client(alice).get("/mesas/nueva/").content.decode()
    assert "play-bots-now" in alice_new and "disabled>" not in alice_new
    assert SENTENCE not in alice_new


def _invite_link(alice) -> str:
    created = create_table(token_client(alice), 3, ["friend", "nino"])
    return f"/invitacion/{created['invites'][0]['token']}/"


def test_the_invite_page_tells_a_suspended_dani_why_and_offers_no_seat(
    suspended_dani, alice, bob
):
    link = _invite_link(alice)

    page = _client(suspended_dani).get(link)

    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="join-refused"' in html and html.count(SENTENCE) == 1
    assert 'class="primary big" disabled>Sentarme y jugar' in html

    bobs = _client(bob).get(link).content.decode()
    assert 'class="primary big">Sentarme y jugar' in bobs
    assert SENTENCE not in bobs and "join-refused" not in bobs
    # a visitor who is signed out is offered the sign-up, not the refusal
    assert "join-refused" not in Client().get(link).content.decode()
