"""The invitation says what the friend is sitting down to: the rule profile (linked to its
rules), the seats, the target and the time per move, as the table page says them. It
said seats and target only; a one-hand profile read "a 1 puntos"."""

import re

import pytest

from tables import services
from tables.models import Seat

pytestmark = pytest.mark.django_db


def _invite_path(alice, **options) -> str:
    options = {"seats": 2, "target": 50, "others": ["friend"], **options}
    if options["seats"] > 2 and len(options["others"]) == 1:
        options["others"] = ["friend"] + ["nino"] * (options["seats"] - 2)
    table = services.table_create(creator=alice, **options)
    return f"/invitacion/{Seat.objects.get(table=table, index=1).invite_token}/"


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_invitation_names_the_rules_with_their_link_and_the_move_time(client, alice):
    page = client.get(_invite_path(alice, seats=3, target=100, move_days=1)).content.decode()

    assert 'id="profile-link" href="/reglas/"' in page
    text = _text(page)
    assert "Reglas: Clásicas (de la casa) · Tiempo por jugada: 1 día" in text
    assert "Mesa de 3 jugadores, a 100 puntos." in text


def test_another_profile_links_to_its_summary(client, alice):
    path = _invite_path(alice, seats=4, target=150, rules="spain_pairs", move_days=7)

    page = client.get(path).content.decode()

    assert 'href="/reglas/perfiles/#perfil-spain_pairs"' in page
    assert "Parejas, federación española (a 150)" in page
    assert "Tiempo por jugada: 7 días" in _text(page)


def test_a_one_hand_profile_says_one_hand_not_one_point(client, alice):
    path = _invite_path(alice, rules="first_double", target=None)

    page = _text(client.get(path).content.decode())

    assert "Mesa de 2 jugadores, a una sola mano." in page
    assert "a 1 puntos" not in page


def test_it_speaks_english(client, alice):
    path = _invite_path(alice, move_days=3)

    page = _text(client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode())

    assert "Rules: Classic (house rules) · Time per move: 3 days" in page


def test_the_api_preview_gives_the_move_time(api_client_for, alice, bob):
    token = _invite_path(alice, move_days=3).split("/")[2]

    preview = api_client_for(bob).get(f"/api/v1/invites/{token}/").json()

    assert preview["move_seconds"] == 3 * 86400
    assert preview["rules"] == "classic"
