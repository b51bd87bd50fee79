"""The hand-over notice speaks to its reader: alice, who won hand 2 of table 4, read
"Terminó la mano 2 de la mesa 4: alice se anota 19 puntos" and now reads "…: te anotas
19 puntos"; with her partner "…: tu pareja y tú se anotan 19 puntos"; the others keep the
third person. One point stays "punto", in Spanish and English."""

from __future__ import annotations

import pytest
from django.utils import translation

from notices import selectors, services
from notices.models import Notification
from tests.support.pages import play_first_moves, seat_friends

pytestmark = pytest.mark.django_db


def _sentence(winners: list[str], points: int, won: bool | None) -> str:
    payload = {"hand": 2, "winners": winners, "points": points}
    if won is not None:
        payload["won"] = won
    notice = Notification(kind=Notification.Kind.HAND_OVER, payload=payload, table_id=4)
    return selectors.describe(notice)


@pytest.mark.parametrize(
    ("language", "winners", "points", "won", "text"),
    [
        ("es", ["alice"], 19, True, "Terminó la mano 2 de la mesa 4: te anotas 19 puntos"),
        ("es", ["alice"], 1, True, "Terminó la mano 2 de la mesa 4: te anotas 1 punto"),
        (
            "es",
            ["alice", "Nino"],
            19,
            True,
            "Terminó la mano 2 de la mesa 4: tu pareja y tú se anotan 19 puntos",
        ),
        (
            "es",
            ["alice", "Nino"],
            1,
            True,
            "Terminó la mano 2 de la mesa 4: tu pareja y tú se anotan 1 punto",
        ),
        ("es", ["alice"], 19, False, "Terminó la mano 2 de la mesa 4: alice se anota 19 puntos"),
        ("es", ["alice"], 19, None, "Terminó la mano 2 de la mesa 4: alice se anota 19 puntos"),
        ("en", ["alice"], 19, True, "Hand 2 at table 4 is over: you score 19 points"),
        ("en", ["alice"], 1, True, "Hand 2 at table 4 is over: you score 1 point"),
        (
            "en",
            ["alice", "Nino"],
            19,
            True,
            "Hand 2 at table 4 is over: your partner and you score 19 points",
        ),
        (
            "en",
            ["alice", "Nino"],
            1,
            False,
            "Hand 2 at table 4 is over: alice and Nino score 1 point",
        ),
    ],
)
def test_it_says_te_anotas_to_the_winner(language, winners, points, won, text):
    with translation.override(language):
        assert _sentence(winners, points, won) == text


def test_each_person_seated_learns_whether_they_won(alice, bob, mallory):
    table = play_first_moves(seat_friends(alice, [bob]), [alice, bob])
    hand = table.hands.get(number=0)
    written = services.record_hand_over(table_id=table.pk, hand_number=0)
    won = {notice.recipient.username: notice.payload["won"] for notice in written}
    winner = table.seat_set.get(index=hand.winners[0]).user.username if hand.winners else None
    assert won == {"alice": winner == "alice", "bob": winner == "bob"}
    assert not Notification.objects.filter(recipient=mallory).exists()
