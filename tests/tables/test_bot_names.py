"""Two bots of the same kind at one table get distinct names everywhere: "Nino" and
"Nino II" in the API's players (so the page's team names and log) and in the match-over
notice, which feeds the e-mail (issue 16); one bot holding both hands of a pair
(seven_plus_seven) is one name."""

import pytest

from notices.models import Notification
from tables import services
from tables.seating import bot_name
from tests.support.api import create_table, table

pytestmark = pytest.mark.django_db


def test_bot_names_are_numbered_from_the_second_seat_of_a_kind():
    assert [bot_name("nino", n) for n in (1, 2, 3)] == ["Nino", "Nino II", "Nino III"]
    assert bot_name("quelonia") == "Abuela Quelonia"


def test_the_api_names_two_ninos_apart(api_client_for, alice):
    created = create_table(api_client_for(alice), 4, ["nino", "nino", "garabato"])
    names = [player["name"] for player in table(api_client_for(alice), created["id"])["players"]]
    assert names == ["alice", "Nino", "Nino II", "Garabato"]


def test_the_match_over_notice_lists_both_ninos(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = services.table_create(creator=alice, seats=3, target=50, others=["nino", "nino"])
        services.table_abandon(table_id=created.pk, user=alice)
    notice = Notification.objects.get(recipient=alice, table_id=created.pk, kind="match_over")
    assert notice.payload["players"] == ["alice", "Nino", "Nino II"]
    assert set(notice.payload["others"]) == {"Nino", "Nino II"}


def test_one_nino_holding_both_hands_of_a_pair_is_one_name(api_client_for, alice):
    created = api_client_for(alice).post(
        "/api/v1/tables/",
        {"seats": 4, "target": 150, "rules": "seven_plus_seven", "others": ["nino"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    names = [player["name"] for player in created.json()["players"]]
    assert names == ["alice", "Nino", "alice", "Nino"]
