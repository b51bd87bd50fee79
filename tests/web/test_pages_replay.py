"""The replay page and "Partidas terminadas" (issue 16): the replay is built from the
record with the engine, so it ends on the scores ``python -m dominoes replay`` gives."""

import json
import random
import re

import pytest

from tables import selectors, services
from tables.models import Table
from tests.support.api import replay

pytestmark = pytest.mark.django_db


def _finished(user, seats: int, others: list[str], seed: int, capture) -> Table:
    """A match of ``user`` against bots played to its end through the services (the bots
    move on commit: ``capture`` is django_capture_on_commit_callbacks)."""
    with capture(execute=True):
        table = services.table_create(creator=user, seats=seats, target=50, others=others)
    rng = random.Random(seed)
    for _ in range(600):
        fresh, seat = services.table_for_user(table.pk, user)
        view = selectors.table_view_for_user(fresh, seat, user)
        if view["status"] != "playing":
            return fresh
        moves = view["game"]["legal_moves"]
        assert view["your_turn"] and moves, "the bots play inline up to alice's turn"
        move = rng.choice(moves)
        with capture(execute=True):
            services.move_play(
                table_id=table.pk,
                user=user,
                version=view["version"],
                tile=move["tile"],
                end=move["end"],
            )
    raise AssertionError("the match did not end")


def _replay_data(client, table_id: int) -> dict:
    page = client.get(f"/mesas/{table_id}/partida/")
    assert page.status_code == 200
    found = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', page.content.decode()
    )
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("seats", "others"), [(2, ["garabato"]), (3, ["nino", "garabato"]), (4, ["nino"] * 3)]
)
def test_the_replay_ends_on_the_scores_of_dominoes_replay(
    client, alice, seats, others, django_capture_on_commit_callbacks
):
    table = _finished(alice, seats, others, seats, django_capture_on_commit_callbacks)
    client.force_login(alice)
    data = _replay_data(client, table.pk)
    answer = replay(selectors.table_record(table))
    assert data["answer"] == answer
    assert data["pairs"] is (seats == 4)  # each seat shows its pair's points (R2)
    assert data["your_seats"] == [0] and data["two_hands"] is False  # alice reads "tú"
    assert data["hands"][-1]["steps"][-1]["scores"] == answer["scores"]
    assert answer["scores"] == [seat.score for seat in table.seat_set.order_by("index")]
    for hand in data["hands"]:
        assert hand["seed_checked"] and len(hand["seed"]) == 64
        assert hand["steps"][0]["action"] is None and hand["steps"][0]["line"] == []
        assert sum(len(tiles) for tiles in hand["steps"][0]["holdings"]) == 7 * seats


def test_only_seated_players_see_a_finished_match_and_not_before_it_ends(
    client, alice, bob, django_capture_on_commit_callbacks
):
    table = _finished(alice, 2, ["nino"], 1, django_capture_on_commit_callbacks)
    running = services.table_create(creator=alice, seats=2, target=50, others=["nino"])
    client.force_login(bob)
    assert client.get(f"/mesas/{table.pk}/partida/").status_code == 404
    client.force_login(alice)
    assert client.get(f"/mesas/{running.pk}/partida/").status_code == 404
    page = client.get(f"/mesas/{table.pk}/partida/").content.decode()
    assert "Descargar registro" in page and f'href="/api/v1/tables/{table.pk}/record/"' in page


def test_finished_matches_are_listed_and_filtered(
    client, alice, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    against_nino = _finished(alice, 2, ["nino"], 2, capture)
    against_garabato = _finished(alice, 2, ["garabato"], 3, capture)
    services.table_create(creator=alice, seats=2, target=50, others=["nino"])  # running
    client.force_login(alice)
    page = client.get("/partidas/").content.decode()
    assert f"/mesas/{against_nino.pk}/partida/" in page
    assert f"/mesas/{against_garabato.pk}/partida/" in page
    only_nino = client.get("/partidas/?opponent=Nino").content.decode()
    assert f"/mesas/{against_nino.pk}/" in only_nino
    assert f"/mesas/{against_garabato.pk}/" not in only_nino
    won = {t.pk for t in (against_nino, against_garabato) if 0 in t.winners}
    listed = client.get("/partidas/?result=won").content.decode()
    for table in (against_nino, against_garabato):
        assert (f"/mesas/{table.pk}/partida/" in listed) == (table.pk in won)
