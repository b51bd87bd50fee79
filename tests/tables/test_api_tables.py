"""Creating tables, listing them, and polling one (R2, R25, R29, R30)."""

import pytest

from tables.models import Seat, Table
from tests.support.api import create_table, join, table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "body",
    [
        {"seats": 5, "target": 100, "others": ["nino"] * 4},
        {"seats": 1, "target": 100, "others": []},
        {"seats": 2, "target": 75, "others": ["nino"]},
        {"seats": 2, "target": 100, "others": ["nino", "nino"]},
        {"seats": 3, "target": 100, "others": ["nino"]},
        {"seats": 2, "target": 100, "others": ["deep-blue"]},
        {"seats": "two", "target": 100, "others": ["nino"]},
        {"seats": 2, "target": 100, "others": "nino"},
        {"seats": 2, "target": 100},
        {},
    ],
)
def test_it_refuses_a_bad_table(body, api_client_for, alice):
    response = api_client_for(alice).post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] in ("invalid", "invalid_table")
    assert Table.objects.count() == 0


def test_a_refusal_lists_the_choices_as_a_player_reads_them(api_client_for, alice):
    client = api_client_for(alice)
    target = client.post("/api/v1/tables/", {"seats": 2, "target": 75, "others": ["nino"]})
    english = client.post(
        "/api/v1/tables/",
        {"seats": 2, "target": 75, "others": ["nino"]},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert target.json()["detail"] == "Con estas reglas la meta es de 50 o 100 puntos."
    assert target.json()["rule"] == "R25"
    assert " 50 or 100 " in english.json()["detail"]
    # One hand decides first_double: it has no target to choose ("la meta es de 1 puntos").
    single = client.post(
        "/api/v1/tables/",
        {"seats": 2, "target": 100, "others": ["nino"], "rules": "first_double"},
        format="json",
    )
    assert single.status_code == 400
    assert single.json()["code"] == "invalid_table"
    assert single.json()["detail"] == (
        "Con estas reglas una sola mano decide la partida: no hay meta que elegir."
    )


def test_it_starts_at_once_against_bots(api_client_for, alice):
    state = create_table(api_client_for(alice), 4, ["nino", "quelonia", "garabato"])
    assert state["status"] == "playing"
    assert state["invites"] == []
    assert [p["bot"] for p in state["players"]] == [None, "nino", "quelonia", "garabato"]
    assert [p["team"] for p in state["players"]] == [0, 1, 0, 1]
    assert state["game"]["hand_number"] == 0
    assert len(state["game"]["tiles"]) == 7
    assert state["game"]["stock_size"] == 0
    assert state["game"]["seed_sha256"]


def test_it_makes_a_partner_link_with_four_seats(api_client_for, alice):
    state = create_table(api_client_for(alice), 4, ["nino", "friend", "nino"])
    assert state["status"] == "waiting"
    assert [(i["seat"], i["partner"]) for i in state["invites"]] == [(2, True)]
    assert state["invites"][0]["url"].startswith("http://testserver/")
    assert len(state["invites"][0]["token"]) >= 22  # 128+ random bits
    assert state["game"] is None


def test_it_starts_when_the_last_seat_is_taken(api_client_for, alice, bob, carol):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    tokens = {i["seat"]: i["token"] for i in created["invites"]}
    after_bob = join(api_client_for(bob), tokens[1])
    assert after_bob["status"] == "waiting"
    assert after_bob["your_seat"] == 1
    assert after_bob["invites"] == []  # only the creator sees the links
    after_carol = join(api_client_for(carol), tokens[2])
    assert after_carol["status"] == "playing"
    assert Seat.objects.get(table_id=created["id"], index=2).user == carol


def test_it_refuses_a_used_or_unknown_invite(api_client_for, alice, bob, carol):
    created = create_table(api_client_for(alice), 2, ["friend"])
    token = created["invites"][0]["token"]
    join(api_client_for(bob), token)
    response = api_client_for(carol).post(f"/api/v1/invites/{token}/join/")
    assert response.status_code == 404
    assert response.json()["code"] == "invite_not_found"
    response = api_client_for(carol).post("/api/v1/invites/not-a-token/join/")
    assert response.status_code == 404


def test_it_refuses_a_second_seat_for_the_same_player(api_client_for, alice):
    created = create_table(api_client_for(alice), 3, ["friend", "friend"])
    response = api_client_for(alice).post(f"/api/v1/invites/{created['invites'][0]['token']}/join/")
    assert response.status_code == 409
    assert response.json()["code"] == "already_seated"
    assert Seat.objects.filter(table_id=created["id"], user__isnull=True).count() == 2


def test_it_renews_an_invite_and_the_old_link_dies(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    old = created["invites"][0]["token"]
    renewed = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/invites/1/renew/")
    assert renewed.status_code == 200
    new = renewed.json()["invites"][0]["token"]
    assert new != old
    assert api_client_for(bob).post(f"/api/v1/invites/{old}/join/").status_code == 404
    assert join(api_client_for(bob), new)["status"] == "playing"


def test_it_previews_an_invite(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 4, ["nino", "friend", "garabato"])
    preview = api_client_for(bob).get(f"/api/v1/invites/{created['invites'][0]['token']}/")
    assert preview.status_code == 200
    assert preview.json()["creator"] == "alice"
    assert preview.json()["partner"] is True
    assert preview.json()["seat"] == 2


def test_at_four_seats_of_first_double_seat_2_is_nobodys_partner(api_client_for, alice, bob):
    """first_double plays every seat for itself (no R2 pairs): its seat 2's link and
    invitation must not promise bob a partner, as the invite page no longer does."""
    response = api_client_for(alice).post(
        "/api/v1/tables/",
        {"seats": 4, "others": ["nino", "friend", "friend"], "rules": "first_double"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    invites = response.json()["invites"]
    assert [(i["seat"], i["partner"]) for i in invites] == [(2, False), (3, False)]
    preview = api_client_for(bob).get(f"/api/v1/invites/{invites[0]['token']}/").json()
    assert (preview["seat"], preview["partner"]) == (2, False)


def test_it_lists_my_turn_first(api_client_for, alice, bob):
    first = create_table(api_client_for(alice), 2, ["friend"])
    second = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), first["invites"][0]["token"])
    join(api_client_for(bob), second["invites"][0]["token"])
    listed = api_client_for(bob).get("/api/v1/tables/").json()["results"]
    turns = [row["your_turn"] for row in listed]
    assert turns == sorted(turns, reverse=True)
    assert {row["id"] for row in listed} == {first["id"], second["id"]}
    assert all("game" not in row for row in listed)
    assert all(row["rules"] == "classic" for row in listed)


def test_it_answers_304_while_nothing_changed(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    client = api_client_for(alice)
    first = client.get(f"/api/v1/tables/{created['id']}/")
    etag = first["ETag"]
    assert (
        client.get(f"/api/v1/tables/{created['id']}/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    )
    version = first.json()["version"]
    assert client.get(f"/api/v1/tables/{created['id']}/?since_version={version}").status_code == 304
    other = api_client_for(bob).get(f"/api/v1/tables/{created['id']}/")
    assert other["ETag"] != etag  # per seat: never serve one seat's view to another


def test_it_refuses_a_stale_version_and_changes_nothing(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    state = table(clients[0], created["id"])
    mover = table(clients[state["turn_seat"]], created["id"])
    move = mover["game"]["legal_moves"][0]
    response = clients[state["turn_seat"]].post(
        f"/api/v1/tables/{created['id']}/moves/",
        {"tile": move["tile"], "end": move["end"], "version": mover["version"] - 1},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["version"] == mover["version"]
    assert table(clients[0], created["id"])["version"] == mover["version"]


def test_it_refuses_a_move_out_of_turn_with_the_rule(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    state = table(clients[0], created["id"])
    waiting = 1 - state["turn_seat"]
    mine = table(clients[waiting], created["id"])
    response = clients[waiting].post(
        f"/api/v1/tables/{created['id']}/moves/",
        {"tile": mine["game"]["tiles"][0], "version": mine["version"]},
        format="json",
    )
    assert response.status_code == 409
    assert response.json() | {"detail": "", "reason": ""} == {
        "code": "not_your_turn",
        "rule": "R3",
        "detail": "",
        "reason": "",
    }


def test_it_refuses_the_wrong_lead_with_the_rule(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    leader = table(clients[0], created["id"])["turn_seat"]
    view = table(clients[leader], created["id"])
    required = view["game"]["legal_moves"][0]["tile"]
    other = next(tile for tile in view["game"]["tiles"] if tile != required)
    response = clients[leader].post(
        f"/api/v1/tables/{created['id']}/moves/",
        {"tile": other, "version": view["version"]},
        format="json",
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["rule"]) == ("wrong_lead", "R7")
    assert table(clients[0], created["id"])["version"] == view["version"]


def test_it_ends_the_match_when_a_player_abandons(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    response = api_client_for(bob).post(f"/api/v1/tables/{created['id']}/abandon/")
    assert response.status_code == 200
    assert response.json()["status"] == "finished"
    assert response.json()["outcome"] == "abandoned"
    assert response.json()["winners"] == [0]
    again = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/abandon/")
    assert again.status_code == 409


def test_it_closes_a_waiting_table_when_its_creator_leaves(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    response = api_client_for(alice).post(f"/api/v1/tables/{created['id']}/abandon/")
    assert response.json()["status"] == "closed"
    token = created["invites"][0]["token"]
    assert api_client_for(bob).post(f"/api/v1/invites/{token}/join/").status_code == 404


def test_it_refuses_a_token_with_a_nul_byte_on_the_page_too(client, alice):
    client.force_login(alice)
    assert client.get("/invitacion/abc%00def/").status_code == 404
    assert client.post("/invitacion/abc%00def/").status_code == 404


def test_it_refuses_an_idempotency_key_reused_for_another_move(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    state = table(clients[0], created["id"])
    mover = clients[state["turn_seat"]]
    view = table(mover, created["id"])
    url = f"/api/v1/tables/{created['id']}/moves/"
    move = view["game"]["legal_moves"][0]
    first = mover.post(
        url,
        {"tile": move["tile"], "end": move["end"], "version": view["version"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert first.status_code == 200
    other = mover.post(
        url, {"tile": "0-0", "version": view["version"]}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert table(mover, created["id"])["version"] == first.json()["version"]


def test_it_forgets_old_idempotency_answers(api_client_for, alice):
    from datetime import timedelta

    from django.utils import timezone

    from tables import tasks
    from tables.models import MoveRequest

    created = create_table(api_client_for(alice), 2, ["garabato"])
    for key, age in (("old", timedelta(days=2)), ("new", timedelta(minutes=5))):
        row = MoveRequest.objects.create(
            user=alice, table_id=created["id"], key=key, status_code=200, body={}
        )
        MoveRequest.objects.filter(pk=row.pk).update(created_at=timezone.now() - age)
    assert tasks.sweep_move_requests() == 1
    assert list(MoveRequest.objects.values_list("key", flat=True)) == ["new"]


def test_it_refuses_deeply_nested_json_as_malformed(anonymous_client, api_client_for, alice):
    body = "[" * 5000 + "]" * 5000
    response = anonymous_client.post(
        "/api/v1/accounts/token/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
    assert response.json()["detail"] == "El cuerpo de la petición no es JSON válido."
    assert response.json()["reason"] == "El JSON está anidado a demasiada profundidad."
    created = create_table(api_client_for(alice), 2, ["garabato"])
    response = api_client_for(alice).post(
        f"/api/v1/tables/{created['id']}/moves/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert Table.objects.get(pk=created["id"]).version == created["version"]


def test_it_answers_a_weak_etag_with_304(api_client_for, alice):
    created = create_table(api_client_for(alice), 2, ["garabato"])
    client = api_client_for(alice)
    etag = client.get(f"/api/v1/tables/{created['id']}/")["ETag"]
    response = client.get(f"/api/v1/tables/{created['id']}/", HTTP_IF_NONE_MATCH=f"W/{etag}")
    assert response.status_code == 304


def test_it_explains_a_refused_move_in_the_players_language(api_client_for, alice, carol):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(carol), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(carol)}
    turn = table(clients[0], created["id"])["turn_seat"]
    waiting = 1 - turn
    view = table(clients[waiting], created["id"])
    response = clients[waiting].post(
        f"/api/v1/tables/{created['id']}/moves/",
        {"tile": view["game"]["tiles"][0], "version": view["version"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es" if waiting == 0 else "en",
    )
    expected = "No es tu turno." if waiting == 0 else "It is not your turn."
    assert response.status_code == 409
    assert response.json()["detail"] == expected
    assert "turn" in response.json()["reason"]


def test_a_lost_bot_turn_is_played_by_the_sweep_not_by_a_read(
    api_client_for, alice, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from tables import tasks

    for _ in range(50):  # the 6-6 decides who leads (R7): wait for a deal the bot leads
        created = create_table(api_client_for(alice), 2, ["garabato"])
        if created["turn_seat"] == 1:
            break
    assert created["turn_seat"] == 1  # its task was never run: as if the broker lost it
    Table.objects.filter(pk=created["id"]).update(
        turn_started_at=timezone.now() - timedelta(minutes=10)
    )
    assert table(api_client_for(alice), created["id"])["version"] == created["version"]
    with django_capture_on_commit_callbacks(execute=True):  # the lost turn's event commits
        assert tasks.sweep_stuck_bots() == 1  # the bot plays (inline: no broker here)
    state = table(api_client_for(alice), created["id"])
    assert state["turn_seat"] == 0
    assert state["version"] > created["version"]
