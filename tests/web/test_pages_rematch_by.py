"""The rematch offer's box on the rematch table's page names who asks for it, as the
inbox does ("bob te propone la revancha en la mesa 12"): "bob te propone la revancha: los
mismos jugadores, las mismas reglas.", at 2, 3 and 4 seats, whoever of the players asked
(not necessarily the finished table's creator). The page gives its script the name
(``data-rematch-by``); ``static/js/table/rematch.js`` writes the sentence."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables import services
from tables.models import Seat
from tables.ui_strings import ui_strings
from tests.support.pages import signed_in_client

pytestmark = pytest.mark.django_db


def _finished(players: list) -> int:
    creator, *guests = players
    table = services.table_create(
        creator=creator, seats=len(players), target=50, others=["friend"] * len(guests)
    )
    for index, guest in enumerate(guests, start=1):
        token = Seat.objects.get(table=table, index=index).invite_token
        services.seat_join(token=token, user=guest)
    services.table_abandon(table_id=table.pk, user=guests[0])
    return table.pk


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_offer_names_who_asked(alice, bob, carol, dave, seats):
    players = [alice, bob, carol, dave][:seats]
    asker = players[-1]  # a guest of the finished table, not its creator
    rematch = services.rematch_offer(table_id=_finished(players), user=asker)
    for offered in (p for p in players if p != asker):
        page = signed_in_client(offered).get(f"/mesas/{rematch.pk}/").content.decode()
        assert f'data-rematch-by="{asker.username}"' in page
    assert (
        "data-rematch-by"
        not in signed_in_client(alice).get(f"/mesas/{_finished(players)}/").content.decode()
    )


def test_the_sentence_in_both_languages():
    assert ui_strings()["rematch_offer_by"] == (
        "%(name)s te propone la revancha: los mismos jugadores, las mismas reglas."
    )
    with translation.override("en"):
        assert ui_strings()["rematch_offer_by"] == (
            "%(name)s offers you a rematch: the same players, the same rules."
        )
