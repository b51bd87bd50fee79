"""At a partnership table (R2) the invitation says which pair the offered seat plays for
and who sits in the partner seat: a person, a bot, or nobody yet. It said nothing of it
(but "Jugarás en pareja con alice." for seat 3), so a friend invited to seat 2 could not
tell whether they would play with or against the person who invited them."""

import re

import pytest

from tables import services
from tables.models import Seat
from tests.conftest import _make_user

pytestmark = pytest.mark.django_db


def _invite(table, index: int) -> str:
    return f"/invitacion/{Seat.objects.get(table=table, index=index).invite_token}/"


def _text(client, path: str, language: str = "es") -> str:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def _four(alice, others: list[str], **options):
    options = {"target": 100, **options}
    return services.table_create(creator=alice, seats=4, others=others, **options)


def test_the_partner_seat_is_open(client, alice):
    table = _four(alice, ["friend", "nino", "friend"])
    text = _text(client, _invite(table, 1))
    assert (
        "Tu asiento es el 2, de la pareja B: el de tu pareja (el 4) está libre, "
        "para otra persona invitada." in text
    )
    assert "alice · pareja A Tu asiento · pareja B Nino (bot) · pareja A" in text
    assert "Asiento libre · pareja B" in text


def test_the_partner_is_a_bot(client, alice):
    table = _four(alice, ["friend", "friend", "nino"])
    text = _text(client, _invite(table, 1))
    assert (
        "Tu asiento es el 2, de la pareja B: jugarás en pareja con Nino, un bot (asiento 4)."
        in text
    )


def test_the_partner_is_the_person_who_invites_or_one_already_seated(
    client, alice, django_user_model
):
    table = _four(alice, ["friend", "friend", "friend"])
    text = _text(client, _invite(table, 2))
    assert "Tu asiento es el 3, de la pareja A: jugarás en pareja con alice (asiento 1)." in text
    dani = _make_user(django_user_model, "dani")
    services.seat_join(token=Seat.objects.get(table=table, index=3).invite_token, user=dani)
    text = _text(client, _invite(table, 1))
    assert "Tu asiento es el 2, de la pareja B: jugarás en pareja con dani (asiento 4)." in text


def test_in_english(client, alice):
    table = _four(alice, ["friend", "friend", "nino"])
    assert "Your seat is number 2, on team B: you will partner Nino, a bot (seat 4)." in _text(
        client, _invite(table, 1), "en"
    )
    assert "Your seat is number 3, on team A: you will partner alice (seat 1)." in _text(
        client, _invite(table, 2), "en"
    )
    table = _four(alice, ["friend", "nino", "friend"])
    text = _text(client, _invite(table, 1), "en")
    assert (
        "Your seat is number 2, on team B: your partner's seat (number 4) is open, "
        "for someone else to be invited to." in text
    )
    assert "Your seat · team B" in text


def test_no_pairs_no_pair_sentence(client, alice):
    two = services.table_create(creator=alice, seats=2, target=100, others=["friend"])
    single = services.table_create(
        creator=alice, seats=4, target=None, rules="first_double", others=["friend"] * 3
    )
    for path in (_invite(two, 1), _invite(single, 1), _invite(single, 2)):
        assert "pareja" not in _text(client, path).lower()  # seat 3 read "en pareja con alice"


def test_seven_plus_seven_names_the_pair_of_both_seats(client, alice):
    table = _four(alice, ["friend"], rules="seven_plus_seven", target=150)
    text = _text(client, _invite(table, 1))
    assert "Tu asiento es el" not in text  # both seats of the pair are yours: no partner
    assert text.count("Tu asiento · pareja B") == 2
