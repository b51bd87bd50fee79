"""``GET /api/v1/tables/`` and the "Mis mesas" page come in pages read by a keyset cursor
(``tables.listing``): my turn first, then active tables, then finished ones, each group by
latest move; a constant number of queries whether alice has 2 finished tables or 2,000."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.support.cursors import BAD_CURSORS
from tests.support.many_tables import many_tables as _world

pytestmark = pytest.mark.django_db


def _first_page(client, path="/api/v1/tables/"):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.content
    return response, len(queries)


def test_the_first_page_costs_the_same_queries_at_2_and_at_2000_finished_tables(
    api_client_for, alice, bob, carol
):
    _world(alice, bob, 2)
    _world(carol, bob, 2000)
    alices, carols = api_client_for(alice), api_client_for(carol)
    few, few_queries = _first_page(alices)
    many, many_queries = _first_page(carols)
    assert few_queries == many_queries, (few_queries, many_queries)
    assert few_queries <= 6  # the token, the page, its seats (and their users), a savepoint
    assert len(few.json()["results"]) == 4 and few.json()["next"] is None
    page = many.json()
    assert len(page["results"]) == 50 and "cursor=" in page["next"]
    # later pages cost the same as the first
    with CaptureQueriesContext(connection) as queries:
        assert carols.get(page["next"]).status_code == 200
    assert len(queries) == many_queries


def test_my_turn_comes_first_then_active_then_finished_and_every_table_once(
    api_client_for, alice, bob
):
    tables = _world(alice, bob, 23)
    client, seen, url = api_client_for(alice), [], "/api/v1/tables/?page_size=7"
    while url:
        page = client.get(url).json()
        assert len(page["results"]) <= 7
        seen += [row["id"] for row in page["results"]]
        url = page["next"]
    assert seen == tables["mine"] + tables["bobs"] + tables["finished"]
    assert (
        api_client_for(bob).get("/api/v1/tables/").json()["results"][0]["id"] == (tables["bobs"][0])
    )


def test_a_cursor_shows_only_the_readers_own_tables(api_client_for, alice, bob, mallory):
    _world(alice, bob, 60)
    alices_next = api_client_for(alice).get("/api/v1/tables/").json()["next"]
    # mallory replays alice's cursor: she gets her own (no) tables, never alice's
    page = api_client_for(mallory).get(alices_next).json()
    assert page == {"next": None, "results": []}


@pytest.mark.parametrize("cursor", BAD_CURSORS)
def test_a_cursor_no_page_gave_is_refused(api_client_for, alice, bob, cursor):
    _world(alice, bob, 3)
    response = api_client_for(alice).get(f"/api/v1/tables/?cursor={cursor}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and response.json()["detail"]


def test_the_my_tables_page_shows_a_page_and_a_link_to_the_next(alice, bob, carol):
    _world(alice, bob, 2)
    _world(carol, bob, 2000)
    pages = {}
    for user in (alice, carol):
        browser = Client()
        browser.force_login(user)
        pages[user.username] = _first_page(browser, "/")
    (few, few_queries), (many, many_queries) = pages["alice"], pages["carol"]
    assert few_queries == many_queries, (few_queries, many_queries)
    assert 'class="more-tables"' not in few.content.decode()
    html = many.content.decode()
    # carol reads the site in English: the link is there in her language
    assert html.count('class="card table-row') == 50 and "More tables" in html
    assert 'class="more-tables"' in html
    browser = Client()
    browser.force_login(carol)
    assert browser.get("/?cursor=garbage").status_code == 200  # the first page again


@pytest.mark.parametrize(("asked", "rows"), [("1", 1), ("2", 2), ("100", 4), ("050", 4)])
def test_page_size_is_a_whole_number_from_1_to_100(api_client_for, alice, bob, asked, rows):
    _world(alice, bob, 2)  # 4 tables: 2 finished, 2 running
    response = api_client_for(alice).get("/api/v1/tables/", {"page_size": asked})
    assert response.status_code == 200
    assert len(response.json()["results"]) == rows


@pytest.mark.parametrize("asked", ["0", "-1", "101", "1000", "9" * 5000, "dos", "1.5", ""])
def test_any_other_page_size_is_refused_with_its_code(api_client_for, alice, bob, asked):
    """docs/api.md: 1-100, else 400 invalid_page_size (neither clamped nor ignored)."""
    _world(alice, bob, 2)
    response = api_client_for(alice).get("/api/v1/tables/", {"page_size": asked})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_page_size" and "100" in body["detail"]
    assert "page_size" in body["fields"]
    english = api_client_for(alice).get(
        "/api/v1/tables/", {"page_size": asked}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.json()["detail"] == "page_size: a whole number of rows (1 to 100)."
