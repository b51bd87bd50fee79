"""A table's admin page at 1280x800, the seats' list and the foot of the page (a tester's
notes): each seat's row was titled "1#1 alice" (table id, #, seat) and now reads "Asiento
1: alice"; a "Segunda mano" column showed a red ✗ at every ordinary table, where it means
nothing (it marks the second hand a person holds in ``seven_plus_seven``): it shows only
at such a table, in words; and the read-only page's one button, "Cerrar", read like
closing the table (a moderation action) while it only goes back to the list: it says
"Volver a la lista de mesas"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables import services
from tables.models import Seat

pytestmark = pytest.mark.django_db


def _page(user, table_id: int) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/admin/tables/table/{table_id}/change/")
    assert response.status_code == 200
    return response.content.decode()


def _row_titles(page: str) -> list[str]:
    """The seats' rows' titles (Django's ``td.original``), spaces collapsed."""
    cells = re.findall(r'<td class="original">\s*<p>(.*?)</p>', page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]


def test_seat_rows_are_titled_asiento_n_and_the_name(alice, bob, mod):
    table = services.table_create(creator=alice, seats=3, others=["friend", "nino"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    page = _page(mod, table.pk)
    assert _row_titles(page) == ["Asiento 1: alice", "Asiento 2: bob", "Asiento 3: Nino"]
    assert f"{table.pk}#1" not in page


def test_an_open_seat_is_titled_free(alice, mod):
    table = services.table_create(creator=alice, seats=2, others=["friend"])
    assert _row_titles(_page(mod, table.pk)) == ["Asiento 1: alice", "Asiento 2: libre"]


def test_an_ordinary_table_has_no_second_hand_column(alice, bob, mod):
    table = services.table_create(creator=alice, seats=2, others=["friend"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    page = _page(mod, table.pk)
    assert "Segunda mano" not in page and "field-second_hand" not in page
    assert "icon-no.svg" not in page


def test_a_two_hand_table_says_which_seat_is_a_second_hand(alice, mod):
    table = services.table_create(
        creator=alice, seats=4, rules="seven_plus_seven", others=["nino"], target=None
    )
    page = _page(mod, table.pk)
    cells = re.findall(r'<td class="field-second_hand_of">\s*<p>([^<]*)</p>', page)
    assert cells == ["—", "—", "sí, con el asiento 1", "—"]
    assert "icon-no.svg" not in page


def test_the_foot_of_the_page_goes_back_to_the_list_and_says_so(alice, mod):
    table = services.table_create(creator=alice, seats=2, others=["nino"])
    page = _page(mod, table.pk)
    row = page.split('<div class="submit-row">')[1].split("</div>")[0]
    assert re.search(r'<a href="/admin/tables/table/"[^>]*>Volver a la lista de mesas</a>', row)
    assert ">Cerrar<" not in page
