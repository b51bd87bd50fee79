"""A tab whose move lost a race (the same player moved first in another tab or on another
device, or the table moved otherwise: 409 ``stale_version``) says its move was not made
and which one counts. It showed the winning move as if it were its own, with no word
that its tile was not played (the refusal was overwritten by the poll's change)."""

from __future__ import annotations

import re

from django.db.models import F

from tables import services
from tables.models import Table
from tests.support.browser import BROWSER_MARKS, signed_in, version, wait_for_version
from tests.support.pages import player_to_move, seat_friends

pytestmark = BROWSER_MARKS

PLAYABLE = "#hand button.tile-btn.playable:not([disabled])"


def _stale_page(live_server, new_page, table: Table, player):
    """The table page of ``player``, whose polls answer 304 until ``release()`` (so it
    stays on the version it drew, as a tab that has not heard of the other's move yet)."""
    held = [True]
    page = signed_in(new_page, live_server.url, player.username)
    page.route(
        re.compile(rf".*/api/v1/tables/{table.pk}/\?.*"),
        lambda route, request: route.fulfill(status=304) if held[0] else route.continue_(),
    )
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector(PLAYABLE)
    return page, lambda: held.clear() or held.append(False)


def test_a_move_beaten_by_the_same_player_elsewhere_says_it_was_not_made(
    live_server, new_page, alice, bob
):
    table = seat_friends(alice, [bob])
    player = player_to_move(table, [alice, bob])
    page, release = _stale_page(live_server, new_page, table, player)
    before = version(page)
    tile = page.get_attribute(PLAYABLE, "data-tile")  # the lead, 6-6: one tile, one way
    services.move_play(table_id=table.pk, user=player, version=before, tile=tile)  # other tab

    page.click(PLAYABLE)

    page.wait_for_selector("#message.error")
    assert page.inner_text("#message") == "Tu jugada no se hizo: la mesa cambió antes."
    release()
    wait_for_version(page, above=before)
    assert page.inner_text("#message") == (
        "Tu jugada no se hizo: ya jugaste en otra pestaña o dispositivo. "
        f"Cuenta esta: Saliste con {tile}."
    )
    assert "error" in page.get_attribute("#message", "class")


def test_a_move_beaten_by_another_change_does_not_blame_another_tab(
    live_server, new_page, alice, bob
):
    """The table moved without a move of the player's (a new version, no new log line):
    the move was not made, and no other tab is named."""
    table = seat_friends(alice, [bob])
    player = player_to_move(table, [alice, bob])
    page, release = _stale_page(live_server, new_page, table, player)
    before = version(page)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)

    page.click(PLAYABLE)

    page.wait_for_selector("#message.error")
    release()
    wait_for_version(page, above=before)
    assert page.inner_text("#message") == "Tu jugada no se hizo: la mesa cambió antes."
    assert "error" in page.get_attribute("#message", "class")
