"""The moderator's job, with named actors: carla reports dani's message; mod (in the
"Moderadores" group, not a superuser) sees the report with its context in the admin,
removes the message and suspends dani for 3 days with a reason; dani can then neither
create nor join a table nor talk (403 ``suspended``) but still moves at his running
table; the moderation log shows it all, and tells dani."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from moderation.models import HiddenHandView, ModerationAction, Report, TalkMessage
from tables import services
from tables.models import Seat, Table
from tests.moderation.conftest import say, talk
from tests.support.api import create_table, play_one, seated_clients, table

pytestmark = pytest.mark.django_db


def _admin(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_moderators_group_has_exactly_what_a_moderator_needs(mod):
    group = Group.objects.get(name="Moderadores")
    codes = sorted(f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all())
    assert codes == sorted(
        [
            "accounts.view_user",
            "moderation.add_moderationaction",
            "moderation.change_report",
            "moderation.change_talkmessage",
            "moderation.view_moderationaction",
            "moderation.view_report",
            "moderation.view_talkmessage",
            "push_notifications.view_apnsdevice",
            "push_notifications.view_gcmdevice",
            "tables.change_table",
            "tables.view_hand",
            "tables.view_move",
            "tables.view_seat",
            "tables.view_table",
        ]
    )
    assert not mod.is_superuser and not mod.has_perm("tables.view_hidden_hands")


def _carla_reports_danis_insult(carla_api, dani_api, table_id) -> tuple[Report, dict]:
    assert say(carla_api, table_id, "¡suerte!").status_code == 201
    assert say(dani_api, table_id, "eres un paquete, jugando así").status_code == 201
    assert say(carla_api, table_id, "vaya...").status_code == 201
    insult = talk(carla_api, table_id)["messages"][1]
    reported = carla_api.post(
        f"/api/v1/tables/{table_id}/reports/",
        {"message": insult["id"], "reason": "insults", "text": "me insulta"},
        format="json",
    )
    assert reported.status_code == 201
    return Report.objects.get(), insult


def _mod_sees_the_report_with_its_context(admin, report: Report) -> None:
    queue = admin.get("/admin/moderation/report/", {"status__exact": "open"})
    assert queue.status_code == 200
    assert "dani" in queue.content.decode() and "carla" in queue.content.decode()
    page = admin.get(f"/admin/moderation/report/{report.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    for text in ("eres un paquete, jugando así", "¡suerte!", "vaya...", "me insulta", "Insultos"):
        assert text in html, text
    assert 'name="_save"' not in html  # no save button: acting is the form below


def _dani_can_neither_create_nor_join_nor_talk(api_client_for, dani_api, ana, table_id, dani):
    created = dani_api.post(
        "/api/v1/tables/", {"seats": 2, "target": 50, "others": ["friend"]}, format="json"
    )
    assert (created.status_code, created.json()["code"]) == (403, "suspended")
    assert created.json()["until"]
    invite = create_table(api_client_for(ana), 2, ["friend"])["invites"][0]["token"]
    joined = dani_api.post(f"/api/v1/invites/{invite}/join/")
    assert (joined.status_code, joined.json()["code"]) == (403, "suspended")
    assert Seat.objects.get(invite_token=invite).user is None
    said = say(dani_api, table_id, "perdón")
    assert (said.status_code, said.json()["code"]) == (403, "suspended")
    assert talk(dani_api, table_id)["can_post"] is False
    assert Table.objects.filter(creator=dani).count() == 0


def _dani_still_moves(carla_api, dani_api, table_id) -> None:
    rng = random.Random(3)
    for _ in range(6):
        state = table(dani_api, table_id)
        if state["your_turn"]:
            before = state["version"]
            assert play_one(dani_api, state, rng).status_code == 200
            assert table(dani_api, table_id)["version"] > before
            return
        assert play_one(carla_api, table(carla_api, table_id), rng).status_code == 200
    raise AssertionError("dani never had the turn")


def _the_log_shows_it_all(admin, dani, dani_api, table_id) -> None:
    log = admin.get("/admin/moderation/moderationaction/").content.decode()
    for text in ("lenguaje ofensivo", "insultos reiterados", "Suspensión", "Mensaje retirado"):
        assert text in log, text
    user_page = admin.get(f"/admin/accounts/user/{dani.pk}/change/").content.decode()
    assert "insultos reiterados" in user_page and "Suspendido hasta" in user_page
    assert f"Mesa {table_id}" in user_page  # his tables
    notices = dani_api.get("/api/v1/moderation/notices/").json()
    assert [n["kind"] for n in notices] == ["suspend", "remove_message"]
    assert notices[0]["reason"] == "insultos reiterados" and notices[0]["until"]
    # the browser shows the suspension where he would create a table
    page = _admin(dani).post("/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "friend"})
    assert "suspendida" in page.content.decode()


def test_carla_reports_dani_mod_removes_the_message_and_suspends_him(
    api_client_for, carla, dani, ana, mod
):
    table_id, clients = seated_clients(api_client_for, [carla, dani])
    carla_api, dani_api = clients[0], clients[1]
    report, insult = _carla_reports_danis_insult(carla_api, dani_api, table_id)
    admin = _admin(mod)
    _mod_sees_the_report_with_its_context(admin, report)

    removed = admin.post(
        f"/admin/moderation/report/{report.pk}/change/",
        {"action": "remove_message", "reason": "lenguaje ofensivo"},
    )
    assert removed.status_code == 302
    assert TalkMessage.objects.get(pk=insult["id"]).removed_at is not None
    report.refresh_from_db()
    assert report.status == "handled" and report.handled_by == mod
    shown = talk(carla_api, table_id)["messages"][1]
    assert shown["removed"] and shown["text"] == ""
    assert shown["removed_reason"] == "lenguaje ofensivo"

    # a reason is required, and the days of a suspension
    refused = admin.post(
        f"/admin/moderation/report/{report.pk}/change/", {"action": "suspend", "reason": ""}
    )
    assert refused.status_code == 200 and not ModerationAction.objects.filter(kind="suspend")
    suspended = admin.post(
        f"/admin/moderation/report/{report.pk}/change/",
        {"action": "suspend", "days": "3", "reason": "insultos reiterados"},
    )
    assert suspended.status_code == 302
    suspension = ModerationAction.objects.get(kind="suspend")
    assert suspension.user == dani and suspension.moderator == mod
    days = (suspension.until - suspension.created_at).total_seconds() / 86400
    assert 2.99 < days < 3.01

    _dani_can_neither_create_nor_join_nor_talk(api_client_for, dani_api, ana, table_id, dani)
    _dani_still_moves(carla_api, dani_api, table_id)  # ...but he plays on at his table
    _the_log_shows_it_all(admin, dani, dani_api, table_id)


def test_close_a_table_with_a_reason_the_players_read_it(api_client_for, carla, dani, mod):
    table_id, clients = seated_clients(api_client_for, [carla, dani])
    admin = _admin(mod)
    act = admin.get("/admin/moderation/moderationaction/act/", {"table": table_id})
    assert act.status_code == 200 and "Cerrar la mesa sin ganador" in act.content.decode()
    done = admin.post(
        f"/admin/moderation/moderationaction/act/?table={table_id}",
        {"action": "close_table", "reason": "lenguaje ofensivo"},
    )
    assert done.status_code == 302
    closed = Table.objects.get(pk=table_id)
    assert (closed.status, closed.outcome) == ("closed", "moderator")
    for client in clients.values():
        [line] = talk(client, table_id)["moderation"]
        assert (line["label"], line["reason"]) == ("Mesa cerrada", "lenguaje ofensivo")
        assert client.get("/api/v1/moderation/notices/").json()[0]["reason"] == "lenguaje ofensivo"
    page = _admin(carla).get(f"/mesas/{table_id}/")
    assert page.status_code == 200


def test_a_single_hand_table_reads_as_its_invitation_says_it(carla, mod):
    """A single-hand table plays to 1 point: the card said "2 asientos, a 1 punto" where
    the invitation says "a una sola mano"; it says so too now, in English as well."""
    one_hand = services.table_create(creator=carla, seats=2, others=["nino"], rules="first_double")
    classic = services.table_create(creator=carla, seats=2, others=["nino"], target=50)
    act = "/admin/moderation/moderationaction/act/"
    admin = _admin(mod)
    page = admin.get(act, {"table": one_hand.pk}).content.decode()
    assert "Mesa de 2 jugadores, a una sola mano." in page and "a 1 punto" not in page, page
    assert "2 asientos, a 50 puntos" in admin.get(act, {"table": classic.pk}).content.decode()
    admin.cookies["django_language"] = "en"
    page = admin.get(act, {"table": one_hand.pk}).content.decode()
    assert "Table for 2 players, one hand decides." in page, page


def test_warn_and_deactivate(api_client_for, carla, dani, mod):
    seated_clients(api_client_for, [carla, dani])
    admin = _admin(mod)
    url = f"/admin/moderation/moderationaction/act/?user={dani.pk}"
    assert admin.post(url, {"action": "warn", "reason": "cuidado con el tono"}).status_code == 302
    warning = api_client_for(dani).get("/api/v1/moderation/notices/").json()[0]
    assert (warning["kind"], warning["reason"]) == ("warn", "cuidado con el tono")
    assert admin.post(url, {"action": "deactivate", "reason": "spam"}).status_code == 302
    dani.refresh_from_db()
    assert dani.is_active is False
    assert ModerationAction.objects.filter(user=dani).count() == 2


def test_a_player_cannot_use_the_moderators_pages(api_client_for, carla, dani):
    table_id, _clients = seated_clients(api_client_for, [carla, dani])
    player = _admin(carla)
    for url in (
        f"/admin/moderation/moderationaction/act/?table={table_id}",
        "/admin/moderation/report/",
    ):
        assert player.get(url).status_code == 302  # to the admin's login
    assert Table.objects.get(pk=table_id).status == "playing"


def test_the_table_page_draws_the_game_without_a_running_hands_tiles(
    api_client_for, carla, dani, mod
):
    table_id, clients = seated_clients(api_client_for, [carla, dani])
    rng = random.Random(5)
    for _ in range(4):
        state = table(clients[0], table_id)
        mover = clients[state["turn_seat"]]
        assert play_one(mover, table(mover, table_id), rng).status_code == 200
    page = _admin(mod).get(f"/admin/tables/table/{table_id}/change/").content.decode()
    assert 'name="_save"' not in page and "Guardar" not in page
    assert "La partida" in page and "Jugadas" in page
    assert re.search(r"<td>1( ▶)?</td><td>carla</td>", page)  # seats numbered from 1
    assert re.search(r"<td>2( ▶)?</td><td>dani</td>", page)
    hidden = [str(t) for t in Table.objects.get(pk=table_id).state["hands"][0]["holdings"][1]]
    assert "Su mano" not in page
    assert "Las fichas de la mano en juego no se muestran" in page
    assert not HiddenHandView.objects.exists()
    assert hidden  # (the tiles are in the state; the page names only the line's)


def test_staff_with_the_permission_see_the_tiles_and_it_is_logged(api_client_for, carla, dani, mod):
    from django.contrib.auth.models import Permission

    table_id, _clients = seated_clients(api_client_for, [carla, dani])
    mod.user_permissions.add(Permission.objects.get(codename="view_hidden_hands"))
    page = _admin(mod).get(f"/admin/tables/table/{table_id}/change/").content.decode()
    assert "Su mano (oculta a los jugadores)" in page
    view = HiddenHandView.objects.get()
    assert (view.viewer, view.table_id, view.hand_number) == (mod, table_id, 0)


def test_never_at_their_own_table(api_client_for, carla, mod):
    from django.contrib.auth.models import Permission

    mod.user_permissions.add(Permission.objects.get(codename="view_hidden_hands"))
    table_id, _clients = seated_clients(api_client_for, [carla, mod])
    page = _admin(mod).get(f"/admin/tables/table/{table_id}/change/").content.decode()
    assert "Su mano" not in page
    assert not HiddenHandView.objects.exists()


def test_held_talk_is_hidden_from_staff_without_the_permission(four_seats, mod):
    table_id, clients = four_seats
    assert say(clients["ana"], table_id, "tengo el seis doble").status_code == 201
    admin = _admin(mod)
    listing = admin.get("/admin/moderation/talkmessage/").content.decode()
    page = admin.get(f"/admin/tables/table/{table_id}/change/").content.decode()
    for html in (listing, page):
        assert "tengo el seis doble" not in html
    message = TalkMessage.objects.get()
    assert admin.get(f"/admin/moderation/talkmessage/{message.pk}/change/").status_code == 404
    act = admin.get("/admin/moderation/moderationaction/act/", {"message": message.pk})
    assert act.status_code == 403


def test_the_filters_that_matter(api_client_for, carla, dani, mod):
    table_id, clients = seated_clients(api_client_for, [carla, dani])
    other, _others = seated_clients(api_client_for, [carla, dani])
    assert (
        clients[0]
        .post(f"/api/v1/tables/{table_id}/reports/", {"seat": 1, "reason": "spam"}, format="json")
        .status_code
        == 201
    )
    admin = _admin(mod)
    reported = admin.get("/admin/tables/table/", {"reported": "open"})
    assert [t.pk for t in reported.context["cl"].result_list] == [table_id]
    users = admin.get("/admin/accounts/user/", {"reports": "open"})
    assert [u.username for u in users.context["cl"].result_list] == ["dani"]
    url = f"/admin/moderation/moderationaction/act/?user={dani.pk}"
    admin.post(url, {"action": "suspend", "days": "2", "reason": "spam"})
    suspended = admin.get("/admin/accounts/user/", {"suspended": "yes"})
    assert [u.username for u in suspended.context["cl"].result_list] == ["dani"]
    assert other not in [t.pk for t in reported.context["cl"].result_list]


def test_moves_are_listed_with_their_tile_and_a_running_draw_hidden(
    api_client_for, carla, dani, mod
):
    from tables.models import Move

    table_id, clients = seated_clients(api_client_for, [carla, dani])
    rng = random.Random(21)
    while not Move.objects.filter(table_id=table_id, kind="draw", hand__ended_at=None).exists():
        state = table(clients[0], table_id)
        if state["game"]["hand_number"] > 0 or state["status"] != "playing":
            pytest.skip("no draw in this deal's first hand")
        mover = clients[state["turn_seat"]]
        assert play_one(mover, table(mover, table_id), rng).status_code == 200
    draw = Move.objects.filter(table_id=table_id, kind="draw", hand__ended_at=None).first()
    play = Move.objects.filter(table_id=table_id, kind="play").first()
    listing = _admin(mod).get("/admin/tables/move/", {"kind__exact": "draw"})
    rows = {
        m.pk: listing.context["cl"].model_admin.shown_tile(m)
        for m in listing.context["cl"].result_list
    }
    assert rows[draw.pk] == "?"
    page = _admin(mod).get(f"/admin/tables/move/{play.pk}/change/").content.decode()
    assert play.tile in page and 'name="_save"' not in page
    from django.contrib.auth.models import Permission

    mod.user_permissions.add(Permission.objects.get(codename="view_hidden_hands"))
    mod = type(mod).objects.get(pk=mod.pk)  # fresh permission cache
    listing = _admin(mod).get("/admin/tables/move/", {"kind__exact": "draw"})
    rows = {
        m.pk: listing.context["cl"].model_admin.shown_tile(m)
        for m in listing.context["cl"].result_list
    }
    assert rows[draw.pk] == draw.tile


def test_read_only_pages_have_no_save_button_even_for_a_superuser(
    api_client_for, carla, dani, admin_user
):
    from tables.models import Hand, Move

    table_id, clients = seated_clients(api_client_for, [carla, dani])
    state = table(clients[0], table_id)
    mover = clients[state["turn_seat"]]
    assert play_one(mover, table(mover, table_id), random.Random(1)).status_code == 200
    admin = _admin(admin_user)
    pages = [
        f"/admin/tables/table/{table_id}/change/",
        f"/admin/tables/hand/{Hand.objects.get(table_id=table_id).pk}/change/",
        f"/admin/tables/move/{Move.objects.filter(table_id=table_id).first().pk}/change/",
    ]
    for url in pages:
        page = admin.get(url)
        assert page.status_code == 200, url
        assert 'name="_save"' not in page.content.decode(), url


def test_the_player_reads_what_concerns_them_on_their_home_page(api_client_for, carla, dani, mod):
    table_id, _clients = seated_clients(api_client_for, [carla, dani])
    admin = _admin(mod)
    url = f"/admin/moderation/moderationaction/act/?user={dani.pk}"
    admin.post(url, {"action": "warn", "reason": "cuidado con el tono"})
    admin.post(url, {"action": "suspend", "days": "3", "reason": "insultos"})
    closing = f"/admin/moderation/moderationaction/act/?table={table_id}"
    admin.post(closing, {"action": "close_table", "reason": "lenguaje ofensivo"})
    home = _admin(dani).get("/").content.decode()
    assert "Aviso de un moderador: cuidado con el tono" in home
    assert "Tu cuenta está suspendida hasta el" in home and "insultos" in home
    assert f"Mesa {table_id} cerrada por un moderador: lenguaje ofensivo" in home
    other = _admin(carla).get("/").content.decode()
    assert f"Mesa {table_id} cerrada por un moderador: lenguaje ofensivo" in other
    assert "cuidado con el tono" not in other and "suspendida" not in other


def test_deleting_an_account_keeps_the_talk_reports_and_log(api_client_for, carla, dani, mod):
    """Issue 17's account deletion: the moderation rows that named dani stay, without
    him (the table's talk shows his seat as the deleted player's)."""
    from accounts.services import account_delete

    table_id, clients = seated_clients(api_client_for, [carla, dani])
    assert say(clients[1], table_id, "adiós").status_code == 201
    message = talk(clients[0], table_id)["messages"][0]["id"]
    report = {"message": message, "reason": "spam"}
    assert clients[0].post(f"/api/v1/tables/{table_id}/reports/", report).status_code == 201
    url = f"/admin/moderation/moderationaction/act/?user={dani.pk}"
    assert _admin(mod).post(url, {"action": "warn", "reason": "ojo"}).status_code == 302
    account_delete(user=dani)
    assert TalkMessage.objects.get(pk=message).author is None
    assert Report.objects.get().reported is None
    assert ModerationAction.objects.get().reason == "ojo"
    assert [m["text"] for m in talk(clients[0], table_id)["messages"]] == ["adiós"]
