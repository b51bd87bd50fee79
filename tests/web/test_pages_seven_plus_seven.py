"""``seven_plus_seven`` in the browser pages (issue 8): alice creates it with the form
(she holds seats 1 and 3 as the pages count them), bob takes both seats of the other
pair with one link, each table page shows both of its viewer's hands and which one
plays, and mallory gets nothing."""

from __future__ import annotations

import json
import re

import pytest

from tables import services
from tables.models import Seat, Table
from tests.support.pages import hidden_from, tile_tokens

pytestmark = pytest.mark.django_db


def embedded(page: str, script_id: str = "table-data"):
    found = re.search(
        rf'<script id="{script_id}" type="application/json">(.*?)</script>', page, re.S
    )
    assert found, f"the page embeds {script_id}"
    return json.loads(found.group(1))


def create(client, seat_1: str) -> Table:
    # seat_2/seat_3 are posted as the form's defaults are, and ignored for this profile.
    r = client.post(
        "/mesas/nueva/",
        {
            "rules": "seven_plus_seven",
            "seats": 4,
            "target": 150,
            "seat_1": seat_1,
            "seat_2": "nino",
            "seat_3": "nino",
        },
    )
    assert r.status_code == 302, r.content.decode()
    return Table.objects.latest("pk")


def test_the_form_creates_a_table_with_a_link_for_the_other_pair(client, alice):
    client.force_login(alice)

    table = create(client, "friend")

    assert (table.rules, table.seats, table.target, table.status) == (
        "seven_plus_seven",
        4,
        150,
        "waiting",
    )
    rows = Seat.objects.filter(table=table).order_by("index")
    assert [(s.user_id, s.bot, bool(s.invite_token)) for s in rows] == [
        (alice.pk, "", False),
        (None, "", True),
        (alice.pk, "", False),
        (None, "", False),
    ]
    page = client.get(f"/mesas/{table.pk}/").content.decode()
    assert "Siete más siete (parejas, a 150)" in page
    assert 'href="/reglas/perfiles/#perfil-seven_plus_seven"' in page
    data = embedded(page)
    assert data["your_seats"] == [0, 2]
    assert [(i["seat"], i["hands"]) for i in data["invites"]] == [(1, [1, 3])]
    assert embedded(page, "table-profile")["two_hands"] is True


def test_the_form_explains_the_profile(client, alice):
    client.force_login(alice)

    page = client.get("/mesas/nueva/").content.decode()

    assert 'id="two-hands-note"' in page
    assert 'data-pair-label="La otra pareja (asientos 2 y 4)"' in page
    assert embedded(page, "profile-data")["seven_plus_seven"]["two_hands"] is True


def test_bob_takes_both_seats_from_the_invitation_page(client, alice, bob, mallory):
    client.force_login(alice)
    table = create(client, "friend")
    path = f"/invitacion/{Seat.objects.get(table=table, index=1).invite_token}/"
    client.force_login(bob)

    page = client.get(path).content.decode()
    assert "jugarás las dos manos de una pareja (asientos 2 y 4)" in page
    assert page.count("Tu asiento") == 2
    r = client.post(path)

    assert r.status_code == 302 and r.headers["Location"] == f"/mesas/{table.pk}/"
    table.refresh_from_db()
    assert table.status == "playing"
    assert list(table.seat_set.values_list("user", flat=True)) == [alice.pk, bob.pk] * 2
    client.force_login(mallory)
    assert client.get(path).status_code == 404  # the link died with the seats
    assert client.post(path).status_code == 404
    assert client.get(f"/mesas/{table.pk}/").status_code == 404


def _seven_plus_seven(alice, bob) -> Table:
    table = services.table_create(
        creator=alice, seats=4, target=150, others=["friend"], rules="seven_plus_seven"
    )
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    table.refresh_from_db()
    return table


def test_each_table_page_shows_both_own_hands_and_no_other_tile(client, alice, bob):
    table = _seven_plus_seven(alice, bob)
    for user, mine in ((alice, [0, 2]), (bob, [1, 3])):
        client.force_login(user)

        r = client.get(f"/mesas/{table.pk}/")

        page = r.content.decode()
        data = embedded(page)
        assert data["your_seats"] == mine
        assert [hand["seat"] for hand in data["hands"]] == mine
        assert data["your_seat"] == (table.turn_seat if table.turn_seat in mine else mine[0])
        assert 'id="other-hand"' in page
        hidden = hidden_from(table, mine[0]) & hidden_from(table, mine[1])
        assert len(hidden) == 14  # the other pair's two hands
        assert not (tile_tokens(page) & hidden), "a rival tile is on the page"


@pytest.mark.parametrize(
    ("language", "title", "strings"),
    [
        (
            None,  # no language chosen: Spanish
            "Siete más siete (parejas, a 150)",
            {
                "your_turn_hand": "Te toca jugar con tu mano del asiento %(n)s.",
                "other_hand_title": "Tu otra mano (asiento %(n)s)",
                # a no-break space: "asiento 1)" never splits at a line's end
                "seat_name": "%(name)s (asiento\u00a0%(n)s)",
                "log_your_hand": "%(move)s (tu mano del asiento\u00a0%(n)s)",
            },
        ),
        (
            "en",
            "Seven plus seven (pairs, to 150)",
            {
                "seat_name": "%(name)s (seat\u00a0%(n)s)",
                "other_hand_title": "Your other hand (seat %(n)s)",
                "log_your_hand": "%(move)s (your hand at seat\u00a0%(n)s)",
            },
        ),
    ],
)
def test_the_table_page_speaks_the_chosen_language(client, alice, bob, language, title, strings):
    """Each holder's page names the profile and gives the script its two-hand strings in
    the language chosen (Spanish by default)."""
    table = _seven_plus_seven(alice, bob)
    if language:
        client.cookies["django_language"] = language
    for user in (alice, bob):
        client.force_login(user)

        page = client.get(f"/mesas/{table.pk}/").content.decode()

        assert title in page
        shown = embedded(page, "table-strings")
        assert {key: shown[key] for key in strings} == strings


def test_home_lists_the_table_once_with_the_rival_named_once(client, alice, bob):
    table = _seven_plus_seven(alice, bob)
    client.force_login(alice)

    page = client.get("/").content.decode()

    assert page.count(f'href="/mesas/{table.pk}/"') == 1
    assert re.search(r"con\s+bob\s*</span>", page), page
