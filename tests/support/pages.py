"""Tables made for page tests, and what a page may and may not show: another seat's tiles
(R31), the tile names in a page's HTML, the table page's script."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client

from dominoes import match_from_dict
from tables import selectors, services
from tables.models import Seat, Table

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
TILE_TOKEN = re.compile(r"(?<![\d-])[0-6]-[0-6](?![\d-])")


def signed_in_client(user) -> Client:
    """A test client with ``user`` signed in (the pages, not the API)."""
    client = Client()
    client.force_login(user)
    return client


def seat_friends(creator, friends, *, target: int = 100) -> Table:
    """A table of ``1 + len(friends)`` human seats, every invite taken: the match starts."""
    table = services.table_create(
        creator=creator, seats=1 + len(friends), target=target, others=["friend"] * len(friends)
    )
    for index, friend in enumerate(friends, start=1):
        token = Seat.objects.get(table=table, index=index).invite_token
        services.seat_join(token=token, user=friend)
    table.refresh_from_db()
    return table


def player_to_move(table: Table, users):
    """The user of ``users`` whose turn it is at ``table`` (the 6-6 leads the first hand,
    R7). Raises ``AssertionError`` when none is."""
    for user in users:
        fresh, seat = services.table_for_user(table.pk, user)
        if selectors.table_view_for_user(fresh, seat, user)["your_turn"]:
            return user
    raise AssertionError("nobody is to move")


def play_first_moves(table: Table, users: list, *, turns: int = 120, until=None) -> Table:
    """Up to ``turns`` turns through the services, each the seat to play's first legal
    move (``users[seat]`` plays it; the draws and passes follow by themselves, R16), until
    the first hand ends or ``until(game)`` holds; returns ``table`` read again."""
    for _ in range(turns):
        table.refresh_from_db()
        user = users[table.turn_seat]
        table, seat = services.table_for_user(table.pk, user)
        view = selectors.table_view_for_user(table, seat, user)
        if view["game"]["hand_number"] != 0 or (until and until(view["game"])):
            break
        move = view["game"]["legal_moves"][0]
        services.move_play(
            table_id=table.pk,
            user=user,
            version=view["version"],
            tile=move["tile"],
            end=move["end"],
        )
    table.refresh_from_db()
    return table


def hidden_from(table: Table, seat: int) -> set[str]:
    """The tiles ``seat`` must not learn while the hand is on (R31): every other seat's
    tiles and the stock still face down, straight from the engine state."""
    hand = match_from_dict(table.state).hand
    hidden = {str(tile) for tile in hand.stock[hand.drawn :]}
    for other, tiles in enumerate(hand.holdings):
        if other != seat:
            hidden |= {str(tile) for tile in tiles}
    return hidden


def own_tiles(table: Table, seat: int) -> set[str]:
    """The tiles ``seat`` holds now, from the engine state."""
    return {str(tile) for tile in match_from_dict(table.state).hand.holdings[seat]}


def tile_tokens(html: str) -> set[str]:
    """Every tile name ("6-4") in a page; dates ("2026-04-01") are not tile names."""
    return set(TILE_TOKEN.findall(html))


def table_page_script() -> str:
    """The table page's script: its entry module ``static/js/table.js`` and every module
    under ``static/js/table/`` it is made of, as one text."""
    modules = [STATIC_JS / "table.js", *sorted((STATIC_JS / "table").glob("*.js"))]
    return "\n".join(module.read_text(encoding="utf-8") for module in modules)
