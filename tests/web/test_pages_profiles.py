"""Rule profiles in the browser pages (docs/profiles.md): the create form offers them and
keeps each one's table sizes and targets, the table page names its profile and links to
its rules, double-nine tiles reach the page, and draw/pass choices are offered."""

from __future__ import annotations

import json
import random
import re
import uuid

import pytest

from dominoes.rules import PROFILES
from tables import selectors, services
from tables.help import PROFILE_LABELS
from tables.models import Seat, Table
from tables.templatetags.tiles import tile_svg
from tests.support.pages import table_page_script

pytestmark = pytest.mark.django_db

#: One valid table of every offered profile, against bots: rules, seats, target posted
#: (None: no target sent) and the target the table gets.
TABLES = [
    ("classic", 3, 50, 50),
    ("international", 4, 200, 200),
    ("spain_pairs", 4, 150, 150),
    ("seven_plus_seven", 4, 150, 150),  # seat_1 is the rival pair: Garabato at 1 and 3
    ("venezuelan", 4, 100, 100),
    ("two_player", 2, 100, 100),
    ("three_player", 3, None, 100),
    ("cuban", 4, 100, 100),
    ("first_double", 4, None, 1),
]
BOTS = {"seat_1": "garabato", "seat_2": "nino", "seat_3": "garabato"}


def embedded(page: str, script_id: str):
    found = re.search(
        rf'<script id="{script_id}" type="application/json">(.*?)</script>', page, re.S
    )
    assert found, f"the page embeds {script_id} with json_script"
    return json.loads(found.group(1))


def create(client, rules: str, seats: int, target: int | None, **extra):
    data = {"rules": rules, "seats": seats, **BOTS, **extra}
    if target is not None:
        data["target"] = target
    return client.post("/mesas/nueva/", data)


def test_every_offered_profile_is_in_the_form_with_its_limits(client, alice):
    client.force_login(alice)

    page = client.get("/mesas/nueva/").content.decode()

    assert [row[0] for row in TABLES] == services.offered_profiles()
    select = re.search(r'<select name="rules".*?</select>', page, re.S).group(0)
    offered = re.findall(r'<option value="([a-z_]+)"', select)
    assert offered == services.offered_profiles()
    assert 'value="classic" selected' in select
    for name in offered:
        assert str(PROFILE_LABELS[name]) in select
    assert "Siete más siete (parejas, a 150)" in select
    facts = embedded(page, "profile-data")
    for name in offered:
        profile = PROFILES[name]
        assert facts[name]["seat_counts"] == list(profile.seat_counts)
        assert facts[name]["targets"] == list(profile.targets)
        assert facts[name]["single_hand"] is profile.single_hand
        assert facts[name]["two_hands"] is (name == "seven_plus_seven")
    assert facts["cuban"]["url"] == "/reglas/perfiles/#perfil-cuban"
    assert facts["classic"]["url"] == "/reglas/"
    # Every target a profile offers can be chosen (the script hides the others).
    for target in (50, 100, 150, 200):
        assert f'name="target" value="{target}"' in page


def test_the_form_speaks_english_too(client, alice):
    client.force_login(alice)
    client.cookies["django_language"] = "en"

    page = client.get("/mesas/nueva/").content.decode()

    assert "Cuban (double-nine)" in page and "Classic (house rules)" in page
    assert "Double lead (one hand)" in page and "Rules" in page


@pytest.mark.parametrize(("rules", "seats", "posted", "target"), TABLES)
def test_it_creates_a_table_of_each_profile_against_bots(
    client, alice, rules, seats, posted, target
):
    client.force_login(alice)

    r = create(client, rules, seats, posted)

    assert r.status_code == 302, r.content.decode()
    table = Table.objects.get(creator=alice)
    assert (table.rules, table.seats, table.target) == (rules, seats, target)
    assert table.status == "playing"
    assert table.state["rules"] == rules
    bots = list(Seat.objects.filter(table=table).order_by("index").values_list("bot", flat=True))
    if rules == "seven_plus_seven":  # alice holds seats 0 and 2
        assert bots == ["", "garabato", "", "garabato"]
        assert list(table.seat_set.values_list("user", flat=True)) == [alice.pk, None] * 2
    else:
        assert bots == ["", "garabato", "nino", "garabato"][:seats]


def test_a_single_hand_profile_ignores_a_posted_target(client, alice):
    client.force_login(alice)

    create(client, "first_double", 2, 100)

    table = Table.objects.get(creator=alice)
    assert (table.rules, table.target) == ("first_double", 1)


def test_a_form_without_rules_is_a_classic_table(client, alice):
    client.force_login(alice)

    client.post("/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "garabato"})

    assert Table.objects.get(creator=alice).rules == "classic"


@pytest.mark.parametrize(
    ("rules", "seats", "target", "field", "words"),
    [
        ("international", 2, 200, "seats", "4 jugadores"),
        ("cuban", 3, 100, "seats", "4 jugadores"),
        ("two_player", 4, 100, "seats", "2 jugadores"),
        ("three_player", 2, 100, "seats", "3 jugadores"),
        ("international", 4, 100, "target", "200 puntos"),
        ("spain_pairs", 4, 200, "target", "150 puntos"),
        ("classic", 2, 150, "target", "50 o 100 puntos"),
        ("classic", 2, None, "target", "50 o 100 puntos"),
        ("seven_plus_seven", 4, 100, "target", "150 puntos"),
        ("seven_plus_seven", 2, 150, "seats", "4 jugadores"),
        ("no_such_rules", 2, 100, "rules", ""),
    ],
)
def test_a_seat_count_or_target_the_profile_lacks_is_refused(
    client, alice, rules, seats, target, field, words
):
    client.force_login(alice)

    r = create(client, rules, seats, target)

    assert r.status_code == 400
    assert field in r.context["form"].errors
    assert words in " ".join(r.context["form"].errors[field])
    assert Table.objects.count() == 0


def test_the_table_page_names_its_profile_and_links_to_its_rules(client, alice):
    client.force_login(alice)
    create(client, "venezuelan", 4, 100)
    table = Table.objects.get(creator=alice)

    page = client.get(f"/mesas/{table.pk}/").content.decode()

    assert 'href="/reglas/perfiles/#perfil-venezuelan"' in page
    assert "Venezolanas (parejas)" in page
    profile = embedded(page, "table-profile")
    assert (profile["name"], profile["pairs"], profile["single_hand"]) == (
        "venezuelan",
        True,
        False,
    )
    strings = embedded(page, "table-strings")
    assert strings["zapato"] and strings["capicua"] and strings["lead_pair"]


def test_a_classic_table_links_to_the_rules_page(client, alice):
    client.force_login(alice)
    create(client, "classic", 2, 100)
    table = Table.objects.get(creator=alice)

    page = client.get(f"/mesas/{table.pk}/").content.decode()

    assert 'id="profile-link" href="/reglas/"' in page
    assert "Clásicas (de la casa)" in page


def test_a_cuban_table_page_carries_double_nine_tiles(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):  # the bots play to alice's turn
        create(client, "cuban", 4, 100)
    table = Table.objects.get(creator=alice)

    page = client.get(f"/mesas/{table.pk}/").content.decode()

    data = embedded(page, "table-data")
    assert data["rules"] == "cuban"
    assert len(data["game"]["tiles"]) <= 10
    seen = data["game"]["tiles"] + [f"{a}-{b}" for a, b in data["game"]["line"]]
    # 10 of 55 tiles with no pip above 6 has a chance below 1 in 10,000.
    assert any(max(map(int, name.split("-"))) > 6 for name in seen), seen
    assert embedded(page, "table-profile")["max_pip"] == 9
    assert "Cubanas (doble nueve)" in page


def test_double_nine_pips_are_drawn_in_the_svg():
    # The {% tile %} tag and table.js share one layout table, now up to 9.
    for count in range(10):
        assert tile_svg(f"{count}-0").count("<circle") == count
    assert tile_svg("9-8").count('class="pip p9"') == 9
    assert tile_svg("9-8").count('class="pip p8"') == 8
    script = table_page_script()
    for count in (7, 8, 9):
        row = re.search(rf"^  {count}: (\[.*\]),$", script, re.M)
        assert row, f"table.js lays out {count} pips"
        assert len(json.loads(row.group(1))) == count


def _first_double_choice(alice, capture):
    """A first_double table (alice and Garabato) played through the services until alice
    must choose to draw or to pass; new deals (random seeds) until one does, bounded."""
    for attempt in range(25):
        rng = random.Random(attempt)
        with capture(execute=True):
            table = services.table_create(
                creator=alice, seats=2, others=["garabato"], rules="first_double"
            )
        for _ in range(60):
            table.refresh_from_db()
            if table.status != "playing":
                break
            seat = Seat.objects.get(table=table, user=alice)
            game = selectors.table_view_for_user(table, seat, alice)["game"]
            if game.get("choices"):
                return table, game
            assert game["legal_moves"], game  # alice's turn: a play (no choice) is open
            move = rng.choice(game["legal_moves"])
            with capture(execute=True):
                services.move_play(
                    table_id=table.pk,
                    user=alice,
                    version=table.version,
                    tile=move["tile"],
                    end=move["end"],
                )
    pytest.fail("no first_double deal in 25 gave alice a draw-or-pass choice")


def test_a_first_double_table_offers_draw_and_pass(
    client, alice, django_capture_on_commit_callbacks
):
    table, game = _first_double_choice(alice, django_capture_on_commit_callbacks)
    assert game["choices"] == ["draw", "pass"]
    assert game["legal_moves"] == [] and game["stock_size"] > 0
    client.force_login(alice)

    page = client.get(f"/mesas/{table.pk}/").content.decode()

    data = embedded(page, "table-data")
    assert data["your_turn"] and data["game"]["choices"] == ["draw", "pass"]
    assert 'id="choices"' in page
    strings = embedded(page, "table-strings")
    assert (strings["choice_draw"], strings["choice_pass"]) == ("Robar", "Pasar")
    profile = embedded(page, "table-profile")
    assert (profile["single_hand"], profile["pairs"]) == (True, False)

    # The page's script posts {action, version} to the moves endpoint with a key.
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            f"/api/v1/tables/{table.pk}/moves/",
            json.dumps({"action": "draw", "version": data["version"]}),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
    assert r.status_code == 200, r.json()
    log = r.json()["game"]["log"]
    assert any(e["seat"] == data["your_seat"] and e["kind"] == "draw" for e in log), log


@pytest.mark.parametrize(("language", "title"), [("es", "Otras reglas"), ("en", "Other rules")])
def test_the_profiles_page_has_an_anchor_per_profile(client, language, title):
    client.cookies["django_language"] = language

    r = client.get("/reglas/perfiles/")

    assert r.status_code == 200
    page = r.content.decode()
    assert title in page
    for name in services.offered_profiles():
        if name != "classic":
            assert f'id="perfil-{name}"' in page
            assert f'href="#perfil-{name}"' in page
    assert 'aria-label="9-9"' in page  # the cuban set, drawn


@pytest.mark.parametrize(
    ("language", "said", "not_said"),
    [
        (
            "es",
            [
                "y si abandonas (o se te acaba el plazo), pierdes la partida.",
                "aunque entre los dos sumen más que los rivales,",
            ],
            ["pierde tu pareja", "aunque su pareja sume más"],
        ),
        (
            "en",
            [
                "and if you leave (or run out of time), you lose the match.",
                "even if the two of them hold more than their rivals,",
            ],
            ["your pair loses"],
        ),
    ],
)
def test_the_profiles_page_says_pareja_only_of_a_partnership(client, language, said, not_said):
    """"Tu pareja" and "su pareja" read as the player's partner: seven plus seven (no
    partner: one person holds both hands) said "si abandonas ... pierde tu pareja", and
    the cuban block "aunque su pareja sume más" where the two partners' total is meant."""
    client.cookies["django_language"] = language

    page = client.get("/reglas/perfiles/").content.decode()

    assert all(words in page for words in said), said
    assert not any(words in page for words in not_said), not_said
