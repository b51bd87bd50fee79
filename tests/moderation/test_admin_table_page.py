"""A table's admin page as a moderator reads it (a tester's notes): the rules by their
name, as the players read them, with the code beside it (it said "classic"); the pairs as
A and B everywhere, as the game panel and the players' pages name them (the seats' list
said 0 and 1); the talk says how many messages it holds back until the hand's end instead
of "Sin mensajes." (never what they say); the tables' list writes its dates short, so that
its columns fit at 1280 px."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone
from django.utils.formats import date_format

from moderation.models import TalkMessage
from tables import services
from tables.models import Table
from tests.moderation.conftest import say
from tests.support.api import seated_clients

pytestmark = pytest.mark.django_db


def _page(user, path: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _seat_pairs(page: str) -> list[str]:
    """The seats' list's "pareja" cells, in seat order."""
    return re.findall(r'<td class="field-pair">\s*<p>([^<]*)</p>', page)


def test_the_rules_are_named_as_the_players_read_them_with_the_code(four_seats, mod):
    table_id, _clients = four_seats
    text = _text(_page(mod, f"/admin/tables/table/{table_id}/change/"))
    assert "Reglas: Clásicas (de la casa) · código classic" in text


def test_the_pairs_are_a_and_b_in_the_seats_list_and_the_game(four_seats, mod):
    table_id, _clients = four_seats
    page = _page(mod, f"/admin/tables/table/{table_id}/change/")
    assert _seat_pairs(page) == ["A", "B", "A", "B"]
    game = page.split('class="module aligned mod-game"')[1].split("</table>")[0]
    assert re.findall(r"<td>([AB])</td>", game) == ["A", "B", "A", "B"]


def test_a_table_without_pairs_has_no_pair_letters(api_client_for, alice, bob, mod):
    """Two seats, and four seats of "first_double", where every seat plays for itself
    (its seats' ``team`` is 0 to 3: the game panel's "AB"[team] failed at seat 3)."""
    two, _clients = seated_clients(api_client_for, [alice, bob])
    four = services.table_create(
        creator=alice, seats=4, target=None, rules="first_double", others=["nino"] * 3
    )
    for table_id in (two, four.pk):
        page = _page(mod, f"/admin/tables/table/{table_id}/change/")
        assert set(_seat_pairs(page)) == {"—"}
        assert "<th>Pareja</th>" not in page


def test_held_talk_is_counted_for_a_moderator_never_shown(four_seats, mod):
    table_id, clients = four_seats
    assert say(clients["ana"], table_id, "tengo el seis doble").status_code == 201
    assert say(clients["bruno"], table_id, "vale").status_code == 201
    for path in (
        f"/admin/tables/table/{table_id}/change/",
        f"/admin/moderation/moderationaction/act/?table={table_id}",
    ):
        page = _page(mod, path)
        assert "Sin mensajes visibles; 2 retenidos hasta que acabe la mano." in page
        assert "Sin mensajes." not in page
        assert "tengo el seis doble" not in page and "vale</p>" not in page


def test_held_talk_is_counted_beside_the_messages_shown(four_seats, mod):
    table_id, clients = four_seats
    assert say(clients["carla"], table_id, "hola").status_code == 201
    TalkMessage.objects.update(held=False)  # as one written before the match began
    assert say(clients["ana"], table_id, "tengo el seis doble").status_code == 201
    page = _page(mod, f"/admin/tables/table/{table_id}/change/")
    assert "hola" in page and "tengo el seis doble" not in page
    assert "Y 1 mensaje más, retenido hasta que acabe la mano." in page


def test_a_moderator_who_may_see_held_talk_reads_it_without_a_count(four_seats, mod):
    mod.user_permissions.add(Permission.objects.get(codename="view_hidden_hands"))
    table_id, clients = four_seats
    assert say(clients["ana"], table_id, "tengo el seis doble").status_code == 201
    page = _page(mod, f"/admin/tables/table/{table_id}/change/")
    assert "tengo el seis doble" in page
    assert "retenidos hasta que acabe" not in page and "Sin mensajes" not in page


def test_the_tables_list_writes_its_dates_short(four_seats, mod):
    table_id, _clients = four_seats
    table = Table.objects.get(pk=table_id)
    rows = _page(mod, "/admin/tables/table/").split('id="result_list"')[1].split("</table>")[0]
    for moment in (table.last_move_at, table.deadline):
        assert date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT") in rows
    assert " a las " not in rows  # "4 de diciembre de 2026 a las 23:02" did not fit
