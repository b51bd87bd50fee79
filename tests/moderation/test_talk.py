"""Table talk: seated players only; at a partnership table nothing written during a hand
reaches anyone until that hand ends, then it shows after the move it followed (seed 002,
"Sin señas": neither the words nor their timing may carry a signal); elsewhere at once."""

from __future__ import annotations

import random

import pytest

from tables import services as table_services
from tables.models import Move
from tests.moderation.conftest import say, talk
from tests.support.api import play_one, play_turn_of, play_until, seated_clients, table

pytestmark = pytest.mark.django_db

NEITHER = "Escribe un mensaje o elige una frase."


def _texts(view: dict) -> list[str]:
    return [message["text"] for message in view["messages"]]


def _play_moves(clients, table_id, count, rng):
    for _ in range(count):
        state = table(clients["ana"], table_id)
        turn = state["turn_seat"]
        mover = clients[["ana", "carla", "bruno", "dani"][turn]]
        assert play_one(mover, table(mover, table_id), rng).status_code == 200


def test_ana_to_her_partner_bruno_reaches_nobody_until_the_hand_ends(four_seats, generous_rates):
    table_id, clients = four_seats
    rng = random.Random(18)
    _play_moves(clients, table_id, 2, rng)
    hand = table(clients["ana"], table_id)["game"]["hand_number"]
    last = Move.objects.filter(table_id=table_id, hand__number=hand).order_by("sequence").last()

    assert talk(clients["ana"], table_id)["held"] is True  # the page says so where she types
    response = say(clients["ana"], table_id, "tengo muchos seises")
    assert response.status_code == 201, response.json()
    mine = response.json()["messages"]
    assert [(m["text"], m["pending"]) for m in mine] == [("tengo muchos seises", True)]

    for name in ("bruno", "carla", "dani"):
        assert talk(clients[name], table_id)["messages"] == [], name
    _play_moves(clients, table_id, 1, rng)  # still the same hand: still nobody
    assert talk(clients["bruno"], table_id)["messages"] == []

    play_until(
        {seat: clients[name] for seat, name in enumerate(["ana", "carla", "bruno", "dani"])},
        table_id,
        rng,
        lambda state: state["game"]["hand_number"] > hand or state["status"] != "playing",
    )
    for name in ("bruno", "carla", "dani", "ana"):
        [message] = talk(clients[name], table_id)["messages"]
        assert message["text"] == "tengo muchos seises"
        assert message["name"] == "ana" and message["seat"] == 0
        assert message["pending"] is False
        assert message["hand"] == hand
        assert message["after_move"] == {
            "sequence": last.sequence,
            "seat": last.seat,
            "kind": last.kind,
            "tile": last.tile or None,
            "lead": False,  # two plays in: the second
        }


def test_at_two_seats_a_message_is_delivered_at_once(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert talk(clients[0], table_id)["held"] is False
    assert say(clients[0], table_id, "¡hola!").status_code == 201
    [message] = talk(clients[1], table_id)["messages"]
    assert (message["text"], message["name"], message["mine"]) == ("¡hola!", "alice", False)
    assert message["pending"] is False


def test_at_three_seats_too(api_client_for, alice, bob, carol):
    table_id, clients = seated_clients(api_client_for, [alice, bob, carol])
    assert say(clients[1], table_id, phrase="good_luck").status_code == 201
    assert _texts(talk(clients[2], table_id)) == ["Suerte"]
    assert talk(clients[2], table_id)["messages"][0]["phrase"] == "good_luck"


def test_after_move_says_whether_the_move_led_the_hand(api_client_for, alice, bob):
    """The page says "(ana salió con 6-6)" after a lead, as the log does, not "jugó"."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, "antes").status_code == 201
    play_turn_of(clients, table_id, random.Random(3))
    assert say(clients[0], table_id, "tras la salida").status_code == 201
    play_turn_of(clients, table_id, random.Random(3))
    assert say(clients[0], table_id, "después").status_code == 201
    lead = Move.objects.get(table_id=table_id, end=None)
    before, after_lead, later = (m["after_move"] for m in talk(clients[1], table_id)["messages"])
    assert before is None
    assert after_lead == {
        "sequence": lead.sequence,
        "seat": lead.seat,
        "kind": "play",
        "tile": lead.tile,
        "lead": True,
    }
    assert later["sequence"] > lead.sequence and later["lead"] is False


def test_talk_between_hands_and_after_the_match_says_where_it_was_written(
    api_client_for, alice, bob, generous_rates
):
    """A message written as hand 1 ended (hand 2 dealt at once, no move yet) is "al
    empezar la mano 2"; one written once the match was over is "match_over", where it
    read "tras la jugada 25 de la mano 3 (...)", the last move before it. ``after_move``
    keeps that last move for the apps that read only it."""
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    rng = random.Random(4)
    assert say(clients[0], table_id, "suerte").status_code == 201
    state = play_until(clients, table_id, rng, lambda state: state["game"]["hand_number"] == 1)
    assert state["status"] == "playing"  # 100 points are not made in one hand
    assert say(clients[1], table_id, "otra mano").status_code == 201
    play_turn_of(clients, table_id, rng)
    assert say(clients[0], table_id, "buena").status_code == 201
    play_until(clients, table_id, rng, lambda state: state["status"] != "playing")
    assert say(clients[1], table_id, "bien jugado").status_code == 201

    start, between, during, after = talk(clients[0], table_id)["messages"]
    assert [(m["hand"], m["written"]) for m in (start, between, during)] == [
        (0, "hand_start"),
        (1, "hand_start"),
        (1, "after_move"),
    ]
    assert between["after_move"] is None and during["after_move"]["sequence"] >= 0
    last = Move.objects.filter(table_id=table_id).order_by("hand__number", "sequence").last()
    assert after["written"] == "match_over"
    assert after["hand"] == last.hand.number and after["after_move"]["sequence"] == last.sequence


def test_a_message_before_the_match_is_written_before_it(api_client_for, ana, bruno):
    from tests.support.api import create_table

    created = create_table(api_client_for(ana), 2, ["friend"])
    assert say(api_client_for(ana), created["id"], "¿vienes?").status_code == 201
    [message] = talk(api_client_for(ana), created["id"])["messages"]
    assert (message["hand"], message["after_move"], message["written"]) == (
        None,
        None,
        "before_match",
    )


def test_before_the_match_starts_it_is_delivered_at_once(api_client_for, ana, bruno):
    from tests.support.api import create_table, join

    creator = api_client_for(ana)
    created = create_table(creator, 4, ["garabato", "friend", "garabato"])
    assert say(creator, created["id"], "te espero").status_code == 201
    token = next(i["token"] for i in created["invites"] if i["seat"] == 2)
    partner = api_client_for(bruno)
    join(partner, token)  # the match starts: a hand is now running
    assert _texts(talk(partner, created["id"])) == ["te espero"]
    assert say(partner, created["id"], "voy").status_code == 201
    assert _texts(talk(creator, created["id"])) == ["te espero"]  # "voy" is held


def test_a_table_that_ends_mid_hand_delivers_what_was_held(four_seats, admin_user):
    table_id, clients = four_seats
    assert say(clients["ana"], table_id, "buena suerte, compañero").status_code == 201
    assert talk(clients["bruno"], table_id)["messages"] == []
    assert table_services.table_close_by_moderator(table_id=table_id)
    assert _texts(talk(clients["bruno"], table_id)) == ["buena suerte, compañero"]
    assert say(clients["bruno"], table_id, "gracias").status_code == 201  # after the match
    assert _texts(talk(clients["ana"], table_id))[-1] == "gracias"


def test_mallory_not_seated_can_neither_read_nor_post(api_client_for, alice, bob, mallory):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    outsider = api_client_for(mallory)
    for response in (
        outsider.get(f"/api/v1/tables/{table_id}/talk/"),
        say(outsider, table_id, "hola"),
        outsider.post(f"/api/v1/tables/{table_id}/talk/mute/", {}, format="json"),
        outsider.get("/api/v1/tables/999999/talk/"),
    ):
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    assert talk(clients[0], table_id)["messages"] == []


def test_anonymous_gets_401(anonymous_client, api_client_for, alice, bob):
    table_id, _clients = seated_clients(api_client_for, [alice, bob])
    response = anonymous_client.get(f"/api/v1/tables/{table_id}/talk/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize(
    "body",
    [
        {"text": "x" * 301},
        {"text": "   "},
        {},
        {"text": "hola", "phrase": "thanks"},
        {"phrase": "insult"},
        {"text": "bell\x07"},
        {"text": "\u200b\u200b\u200b"},  # zero-width spaces: nothing to read
        {"text": " \u2060\ufeff\u200d "},
        {"text": "\u202eolleh"},  # a bidi override shows it reversed
        {"text": "gana \u2066tu\u2069 pareja"},
        {"text": "hola", "colour": "red"},
        {"text": ["hola"]},
        {"text": 123},  # a number is not text: DRF alone would store "123"
        {"text": True},
        {"text": 1.5},
        {"phrase": 1},
    ],
)
def test_bad_messages_are_refused_and_change_nothing(api_client_for, alice, bob, body):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = clients[0].post(f"/api/v1/tables/{table_id}/talk/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    assert talk(clients[1], table_id)["messages"] == []


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"text": "hola", "phrase": "thanks"}, f"{NEITHER[:-1]}, no las dos cosas."),
        ({"text": " "}, NEITHER),
        ({"text": "\u200b\u200c\u2060"}, NEITHER),  # invisible (Cf): as empty
        ({"text": "\u3164"}, NEITHER),  # HANGUL FILLER: a letter that draws nothing
        ({"text": "\u2800\u2800\u2800"}, NEITHER),  # BRAILLE PATTERN BLANK
        ({"text": "\u115f\u1160\uffa0"}, NEITHER),  # the other Hangul fillers
        ({"text": "\u2000\u2005\u200a\u3000"}, NEITHER),  # the wide spaces: whitespace
        ({"text": "\u180e"}, NEITHER),  # MONGOLIAN VOWEL SEPARATOR (Cf)
        ({"text": "\u034f\u034f"}, NEITHER),  # COMBINING GRAPHEME JOINER
        ({"text": "\ufe0f\U000e0100"}, NEITHER),  # variation selectors, with nothing to vary
        ({"text": " \u3164\u200b\u2800\u3000\u034f\u180e "}, NEITHER),  # all of them at once
        ({"text": "\u202ehola"}, "El mensaje lleva caracteres no permitidos."),
    ],
)
def test_both_text_and_phrase_is_told_apart_from_neither(
    api_client_for, alice, bob, body, detail
):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    response = clients[0].post(f"/api/v1/tables/{table_id}/talk/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": detail, "fields": {"text": [detail]}}


def test_a_message_is_plain_text_up_to_300_characters(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    text = "<b>¿jugamos otra?</b>\n" + "y" * (300 - 22)
    assert len(text) == 300
    assert say(clients[0], table_id, text).status_code == 201
    assert _texts(talk(clients[1], table_id)) == [text]  # stored and served as written
    page = clients[1].get(f"/mesas/{table_id}/")
    assert b"<b>" not in page.content  # the page draws it as text (talk.js), never as HTML


def test_invisible_characters_inside_visible_text_stay(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    family = "👨\u200d👩\u200d👧 y \u200fשלום"  # an emoji's joiners, a right-to-left mark
    assert say(clients[0], table_id, family).status_code == 201
    assert _texts(talk(clients[1], table_id)) == [family]


@pytest.mark.parametrize(
    "text",
    [
        "\u2801\u2803",  # Braille with dots: "ab"
        "\u2813\u2815\u2807\u2801\u2800\u2800",  # "hola" in Braille, a blank cell after it
        "안녕하세요",  # Korean
        "\u1112\u1161\u11ab",  # Korean in conjoining jamo ("한")
        "\u3164hola\u3164",  # the filler around visible text stays
        "\u2764\ufe0f",  # a red heart: its variation selector stays
    ],
)
def test_real_text_with_blank_letters_around_it_passes(api_client_for, alice, bob, text):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, text).status_code == 201
    assert _texts(talk(clients[1], table_id)) == [text]


def test_talk_is_rate_limited(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    codes = [say(clients[0], table_id, f"mensaje {n}").status_code for n in range(13)]
    assert codes == [201] * 12 + [429]
    refused = say(clients[0], table_id, "otro")
    assert refused.json()["code"] == "throttled" and refused.json()["retry_after"] > 0
    assert clients[0].get(f"/api/v1/tables/{table_id}/talk/").status_code == 200  # reads free


def test_talk_stays_with_the_tables_history(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, "gg").status_code == 201
    assert clients[1].post(f"/api/v1/tables/{table_id}/abandon/").status_code == 200
    assert _texts(talk(clients[1], table_id)) == ["gg"]
    assert _texts(talk(clients[0], table_id)) == ["gg"]


def test_mute_a_tables_talk(api_client_for, alice, bob):
    table_id, clients = seated_clients(api_client_for, [alice, bob])
    assert say(clients[0], table_id, "uno").status_code == 201
    mute = clients[1].post(f"/api/v1/tables/{table_id}/talk/mute/", {}, format="json")
    assert mute.status_code == 201
    assert mute.json() == {"id": mute.json()["id"], "table": table_id, "user": None}
    assert say(clients[1], table_id, "mío").status_code == 201
    view = talk(clients[1], table_id)
    assert view["muted"] is True and _texts(view) == ["mío"]  # only her own
    assert _texts(talk(clients[0], table_id)) == ["uno", "mío"]  # alice is not muted
    assert clients[1].get("/api/v1/talk/mutes/").json() == [mute.json()]
    assert clients[1].delete(f"/api/v1/talk/mutes/{mute.json()['id']}/").status_code == 204
    assert _texts(talk(clients[1], table_id)) == ["uno", "mío"]


def test_mute_a_person_everywhere(api_client_for, alice, bob):
    first, clients = seated_clients(api_client_for, [alice, bob])
    second, _again = seated_clients(api_client_for, [alice, bob])
    for table_id in (first, second):
        assert say(clients[0], table_id, f"hola {table_id}").status_code == 201
    mute = clients[1].post(f"/api/v1/tables/{first}/talk/mute/", {"seat": 0}, format="json")
    assert mute.status_code == 201 and mute.json()["user"] == "alice"
    for table_id in (first, second):
        view = talk(clients[1], table_id)
        assert view["messages"] == [] and view["muted_seats"] == [0]
        assert view["muted_people"] == [
            {"id": mute.json()["id"], "seat": 0, "name": "alice", "hidden": 1}
        ]
    assert talk(clients[0], table_id)["muted_people"] == []  # alice muted nobody
    again = clients[1].post(f"/api/v1/tables/{first}/talk/mute/", {"seat": 0}, format="json")
    assert again.json()["id"] == mute.json()["id"]  # muting twice keeps one mute
    own = clients[1].post(f"/api/v1/tables/{first}/talk/mute/", {"seat": 1}, format="json")
    assert own.status_code == 400 and own.json()["code"] == "invalid"
    other = clients[0].delete(f"/api/v1/talk/mutes/{mute.json()['id']}/")
    assert other.status_code == 404  # alice cannot undo bob's mute


def test_a_quick_phrase_is_shown_in_each_readers_language(api_client_for, alice, carol):
    table_id, clients = seated_clients(api_client_for, [alice, carol])
    assert say(clients[0], table_id, phrase="good_hand").status_code == 201
    assert _texts(talk(clients[0], table_id)) == ["¡Buena mano!"]
    english = clients[1].get(f"/api/v1/tables/{table_id}/talk/", HTTP_ACCEPT_LANGUAGE="en")
    assert [m["text"] for m in english.json()["messages"]] == ["Good hand!"]
