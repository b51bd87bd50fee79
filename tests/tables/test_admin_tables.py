"""The moderators' admin: hidden hands need a permission and never show for one's own
table; closing a table without winner asks for a reason (issue 18: the table's page draws
the game instead of the engine's JSON, and the action goes through the acting page)."""

import pytest
from django.contrib.auth.models import Permission

from tables.models import Table
from tests.support.api import create_table, join

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    user = django_user_model.objects.create_user("moderator", password="x", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["view_table", "change_table", "view_hand", "view_move"]
        )
    )
    return user


@pytest.fixture
def running(api_client_for, alice, bob):
    created = create_table(api_client_for(alice), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    return Table.objects.get(pk=created["id"])


def _hidden_tiles(table: Table) -> list[str]:
    return [tile for tiles in table.hands.get(number=0).dealt for tile in tiles]


def test_it_hides_the_deal_from_a_plain_moderator(client, moderator, running):
    client.force_login(moderator)
    page = client.get(f"/admin/tables/table/{running.pk}/change/").content.decode()
    assert "holdings" not in page
    hand = running.hands.get(number=0)
    hand_page = client.get(f"/admin/tables/hand/{hand.pk}/change/").content.decode()
    assert hand.seed not in hand_page
    assert hand.seed_sha256 in hand_page


def test_it_shows_the_deal_with_the_permission(client, moderator, running):
    moderator.user_permissions.add(Permission.objects.get(codename="view_hidden_hands"))
    client.force_login(moderator)
    page = client.get(f"/admin/tables/table/{running.pk}/change/").content.decode()
    assert "Su mano (oculta a los jugadores)" in page  # every seat's tiles, drawn
    for tile in _hidden_tiles(running):
        assert f'aria-label="{tile}"' in page
    hand = running.hands.get(number=0)
    assert hand.seed in client.get(f"/admin/tables/hand/{hand.pk}/change/").content.decode()


def test_it_never_shows_a_moderators_own_table(client, moderator, api_client_for, bob):
    moderator.user_permissions.add(Permission.objects.get(codename="view_hidden_hands"))
    created = create_table(api_client_for(moderator), 2, ["friend"])
    join(api_client_for(bob), created["invites"][0]["token"])
    client.force_login(moderator)
    page = client.get(f"/admin/tables/table/{created['id']}/change/").content.decode()
    assert "holdings" not in page


def test_it_closes_a_table_without_winner(client, moderator, running):
    client.force_login(moderator)
    moderator.user_permissions.add(  # acting is written to the moderation log
        *Permission.objects.filter(codename__in=["add_moderationaction", "view_moderationaction"])
    )
    response = client.post(
        "/admin/tables/table/", {"action": "moderate", "_selected_action": [running.pk]}
    )
    assert response.status_code == 302  # to the acting page, which asks for the reason
    act = client.get(response["Location"])
    assert "Cerrar la mesa sin ganador" in act.content.decode()
    done = client.post(response["Location"], {"action": "close_table", "reason": "spam"})
    assert done.status_code == 302
    running.refresh_from_db()
    assert (running.status, running.outcome, running.winners) == ("closed", "moderator", [])


def test_it_lists_and_filters_tables(client, moderator, running):
    client.force_login(moderator)
    assert client.get("/admin/tables/table/?status__exact=playing").status_code == 200
    assert client.get("/admin/tables/table/?stale=1").status_code == 200
    assert client.get("/admin/tables/table/?q=alice").status_code == 200
    assert client.get("/admin/tables/move/").status_code == 200


def test_the_table_page_lists_the_latest_hand_and_links_to_every_move(
    client, moderator, api_client_for, alice, bob, generous_rates, running
):
    """A long match's page showed every move in its inline (5,564 px after five hands):
    the inline now holds the latest hand's moves, and a link opens all of them in the
    moves list, filtered to the table."""
    import random

    from tests.support.api import play_until

    created = create_table(api_client_for(alice), 2, ["friend"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    join(clients[1], created["invites"][0]["token"])
    play_until(
        clients,
        created["id"],
        random.Random(3),
        lambda state: (
            state["status"] != "playing"
            or (state["game"]["hand_number"] >= 1 and len(state["game"]["log"]) >= 2)
        ),
    )
    table = Table.objects.get(pk=created["id"])
    play_until(clients, running.pk, random.Random(4), lambda state: running.moves.exists())
    client.force_login(moderator)
    page = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    latest = table.hands.order_by("-number").first()
    log = page.split("Jugadas de la mano 2")[1].split("</table>")[0]
    assert log.count("<tr><td>") == latest.moves.count()  # the rows of this hand only
    assert "<tr><td>1</td>" not in log  # no move of hand 1
    total = table.moves.count()
    assert total > latest.moves.count()
    assert f'href="/admin/tables/move/?table={table.pk}"' in page
    assert f"Las {total} jugadas de la partida" in page
    listed = client.get(f"/admin/tables/move/?table={table.pk}")
    assert listed.status_code == 200
    assert len(listed.context["cl"].result_list) == total  # not the other table's
    for junk in ("abc", "-1", "²", "99999999999999999999999"):
        assert not client.get(f"/admin/tables/move/?table={junk}").context["cl"].result_list
