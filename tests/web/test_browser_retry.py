"""A move whose first POST fails is retried by the table page with the SAME
Idempotency-Key, and the server applies it once (README, "Writes: no move applied twice or
lost"). Two failures, simulated with a Playwright route on the moves endpoint:

- ``answer_lost``: the request reaches the server, which applies the move, and then the
  connection drops before the answer arrives (the case idempotency exists for: a fresh
  key would play a second move, or be refused as stale);
- ``unavailable``: the server answers ``503`` with ``Retry-After`` without seeing the move.
"""

from __future__ import annotations

import json

import pytest

from tables.models import Move
from tests.support.browser import BROWSER_MARKS, signed_in, version, wait_for_version
from tests.support.pages import player_to_move, seat_friends

pytestmark = BROWSER_MARKS


@pytest.mark.parametrize("failure", ["answer_lost", "unavailable"])
def test_a_move_retried_after_a_failure_is_applied_once_with_the_same_key(
    live_server, new_page, alice, bob, failure
):
    table = seat_friends(alice, [bob])  # two people: nothing moves after the lead by itself
    player = player_to_move(table, [alice, bob])
    page = signed_in(new_page, live_server.url, player.username)
    page.goto(f"{live_server.url}/mesas/{table.pk}/")
    page.wait_for_selector("#hand button.tile-btn.playable:not([disabled])")
    keys: list[str | None] = []

    def fail_the_first_post(route, request):
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) > 1:
            route.continue_()
        elif failure == "answer_lost":
            route.fetch()  # the server plays the move ...
            route.abort("connectionreset")  # ... and its answer never comes back
        else:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body=json.dumps({"code": "unavailable", "detail": "Vuelve a intentarlo."}),
            )

    page.route(f"**/api/v1/tables/{table.pk}/moves/", fail_the_first_post)
    before = version(page)
    tile = page.get_attribute("#hand button.tile-btn.playable:not([disabled])", "data-tile")

    page.click("#hand button.tile-btn.playable:not([disabled])")  # the lead: one way only

    wait_for_version(page, above=before, or_refusal=True)
    assert page.inner_text("#message") == f"Saliste con {tile}."  # as the log says a lead
    assert len(keys) == 2, keys
    assert keys[0] and keys[0] == keys[1]
    table.refresh_from_db()
    assert table.version == before + 1
    assert Move.objects.filter(table=table, kind=Move.Kind.PLAY).count() == 1
    assert version(page) == table.version


def test_each_click_gets_its_own_key(live_server, new_page, alice, bob):
    """Two moves, two intents: each POST carries a new key (a retry is the only repeat)."""
    table = seat_friends(alice, [bob])
    keys: list[str | None] = []
    for _ in range(2):
        player = player_to_move(table, [alice, bob])
        page = signed_in(new_page, live_server.url, player.username)
        page.route(
            f"**/api/v1/tables/{table.pk}/moves/",
            lambda route, request: (
                keys.append(request.headers.get("idempotency-key")),
                route.continue_(),
            ),
        )
        page.goto(f"{live_server.url}/mesas/{table.pk}/")
        before = version(page)
        page.locator("#hand button.tile-btn.playable:not([disabled])").first.click()
        if page.locator("#end-choice").is_visible():
            page.locator("#end-choice .end-btn").first.click()
        wait_for_version(page, above=before)
        table.refresh_from_db()
    assert len(keys) == 2 and all(keys) and keys[0] != keys[1], keys
