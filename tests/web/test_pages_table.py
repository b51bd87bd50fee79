"""The table page: for seated players only, drawn from their seat's view (R31)."""

import json
import random
import re

import pytest

from dominoes import match_from_dict
from tables import selectors, services
from tests.support.pages import hidden_from, own_tiles, seat_friends, tile_tokens

pytestmark = pytest.mark.django_db


def embedded(page: str) -> dict:
    found = re.search(r'<script id="table-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page embeds its table JSON with json_script"
    return json.loads(found.group(1))


def test_it_renders_for_each_seated_player(client, two_seat_table, alice, bob):
    for seat, user in enumerate([alice, bob]):
        client.force_login(user)

        r = client.get(f"/mesas/{two_seat_table.pk}/")

        assert r.status_code == 200
        data = embedded(r.content.decode())
        assert data["your_seat"] == seat
        assert set(data["game"]["tiles"]) == own_tiles(two_seat_table, seat)
        assert 'src="/static/js/table.js"' in r.content.decode()


def test_the_embedded_json_is_the_api_view(client, two_seat_table, alice):
    client.force_login(alice)

    page = client.get(f"/mesas/{two_seat_table.pk}/").content.decode()

    api = client.get(f"/api/v1/tables/{two_seat_table.pk}/").json()
    data = embedded(page)
    assert data["game"] == api["game"]
    assert data["players"] == api["players"]
    assert data["version"] == api["version"]


def test_a_stranger_gets_404(client, two_seat_table, mallory):
    client.force_login(mallory)

    assert client.get(f"/mesas/{two_seat_table.pk}/").status_code == 404
    assert client.get("/mesas/999999/").status_code == 404


def test_anonymous_visitors_go_to_login(client, two_seat_table):
    r = client.get(f"/mesas/{two_seat_table.pk}/")

    assert r.status_code == 302
    assert r.headers["Location"] == f"/accounts/login/?next=/mesas/{two_seat_table.pk}/"


def _play_some(table, users, moves: int, rng: random.Random):
    """Play ``moves`` random legal moves through the service, as the seats' owners."""
    for _ in range(moves):
        table.refresh_from_db()
        if table.status != "playing":
            return
        seat = table.turn_seat
        view = selectors.table_view_for_user(table, table.seat_set.get(index=seat), users[seat])[
            "game"
        ]
        if view["hand_number"] > 0:
            return
        move = rng.choice(view["legal_moves"])
        services.move_play(
            table_id=table.pk,
            user=users[seat],
            tile=move["tile"],
            end=move["end"],
            version=table.version,
        )


@pytest.mark.parametrize("moves", [0, 3, 9])
def test_no_seat_sees_another_seats_tiles(client, alice, bob, carol, dave, moves):
    """R31: while the hand is on, no other seat's tile and no stock tile appears anywhere
    in the page (markup or embedded JSON); the line and the log are public."""
    for users in ([alice, bob], [alice, bob, carol], [alice, bob, carol, dave]):
        table = seat_friends(users[0], users[1:])
        _play_some(table, users, moves, random.Random(moves))
        table.refresh_from_db()
        hand = match_from_dict(table.state).hand
        if hand.number > 0:
            continue  # a new hand: the last one is public now, nothing to check here
        on_line = {f"{max(a, b)}-{min(a, b)}" for a, b in hand.line}
        for seat, user in enumerate(users):
            client.force_login(user)
            page = client.get(f"/mesas/{table.pk}/").content.decode()

            hidden = hidden_from(table, seat)
            leaked = tile_tokens(page) & hidden
            assert not leaked, f"seat {seat} of {len(users)} sees {leaked}"
            assert own_tiles(table, seat) <= tile_tokens(page)
            assert not hidden & on_line


def test_it_applies_the_pip_colour_preference(client, two_seat_table, alice):
    client.force_login(alice)
    assert "pips-coloured" in client.get(f"/mesas/{two_seat_table.pk}/").content.decode()

    alice.pip_colour = "black"
    alice.save()

    assert "pips-black" in client.get(f"/mesas/{two_seat_table.pk}/").content.decode()


def test_the_waiting_table_shows_the_share_link_to_its_creator_only(client, alice, bob, carol):
    table = services.table_create(creator=alice, seats=3, target=50, others=["friend", "friend"])
    client.force_login(alice)

    data = embedded(client.get(f"/mesas/{table.pk}/").content.decode())

    urls = [invite["url"] for invite in data["invites"]]
    assert len(urls) == 2
    assert all(url.startswith("http://testserver/invitacion/") for url in urls)
    token = data["invites"][0]["token"]
    services.seat_join(token=token, user=bob)
    client.force_login(bob)
    assert embedded(client.get(f"/mesas/{table.pk}/").content.decode())["invites"] == []


def test_it_speaks_english_to_an_english_player(client, alice, carol):
    table = seat_friends(alice, [carol])
    client.force_login(carol)

    page = client.get(f"/mesas/{table.pk}/").content.decode()

    assert "Your tiles" in page
    found = re.search(
        r'<script id="table-strings" type="application/json">(.*?)</script>', page, re.S
    )
    strings = json.loads(found.group(1))
    assert strings["your_turn"] == "Your turn."
    assert strings["log_draws"]["other"] == "%(name)s drew %(n)s tiles"
    assert strings["log_play_you"] == "You played %(tile)s"  # her own moves: second person
    assert strings["log_pass_you"] == "You passed"
