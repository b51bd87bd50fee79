""" "Partidas terminadas" in pages (issue 19): 20 finished matches a page, newest first,
read by the keyset cursor of "my tables" (``tables.history``), so a player with 60
finished tables costs the same queries as one with 2; "Más antiguas" and "Más recientes"
keep the filters, an unknown cursor shows the first page, and nobody reads another
player's matches through a cursor. The tables are written in bulk
(``tests.support.many_tables``): only their order, winners and players matter here."""

import html
import random
import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from notices.models import NoticePreferences
from tables.history import PAGE_SIZE
from tables.models import Seat, Table
from tests.support.api import create_table, play_one, table
from tests.support.cursors import BAD_CURSORS
from tests.support.many_tables import tables

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<li class="card table-row">\s*<a class="table-link" href="/mesas/(\d+)/')
LINK = re.compile(r'<a class="button" rel="(prev|next)" href="([^"]+)"')


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(client, path="/partidas/") -> tuple[list[int], dict[str, str]]:
    """The table ids a page lists, in order, and its links: ``{"next": older page,
    "prev": newer page}`` (paths)."""
    response = client.get(path)
    assert response.status_code == 200, response.content[:500]
    text = response.content.decode()
    links = {rel: "/partidas/" + html.unescape(href) for rel, href in LINK.findall(text)}
    return [int(pk) for pk in ROW.findall(text)], links


def _walk(client, path="/partidas/", rel="next", paths=None) -> list[list[int]]:
    """The ids of every page from ``path`` on, following the ``rel`` links (``paths``:
    a list the pages' paths are added to)."""
    pages = []
    while path:
        ids, links = _page(client, path)
        pages.append(ids)
        if paths is not None:
            paths.append(path)
        path = links.get(rel)
        assert len(pages) < 50, "the links go round in circles"
    return pages


def _finished_mix(alice, count: int) -> dict[str, list[int]]:
    """``count`` finished tables of alice's, newest first: against Nino and Garabato in
    turn, won by alice at every third one (the others lost, and one with no winner)."""
    ids = []
    for n in range(count):
        ids += tables(1, status="finished", players=[alice, ("nino", "garabato")[n % 2]])
    for n, pk in enumerate(ids):
        Table.objects.filter(pk=pk).update(winners=[0] if n % 3 == 0 else [1])
    # closed idle after some play (a snapshot, not read here), where a cancelled table has none
    Table.objects.filter(pk=ids[1]).update(
        winners=None, status="closed", outcome="idle", state={}
    )
    # tables() counts minutes back from now at each call: order them as made, newest first
    return {"all": sorted(ids, reverse=True), "won": sorted(ids[::3], reverse=True)}


def test_pages_of_20_newest_first_every_match_once_and_back_again(alice, bob):
    made = tables(45, status="finished", players=[alice, "nino"])  # newest first
    tables(2, status="playing", players=[alice, bob], turn_seat=0)  # not listed
    client, paths = _client(alice), []
    pages = _walk(client, paths=paths)
    assert [len(ids) for ids in pages] == [PAGE_SIZE, PAGE_SIZE, 5]
    assert sum(pages, []) == made  # none repeated, none lost, newest first
    # from the last page, "Más recientes" walks back through the same pages
    assert _walk(client, paths[-1], rel="prev") == pages[::-1]
    assert "prev" not in _page(client)[1]  # the first page has no newer one


def test_the_filters_survive_the_pages(alice):
    made = _finished_mix(alice, 70)
    client = _client(alice)
    pages = _walk(client, "/partidas/?result=won&opponent=Nino")
    seen = sum(pages, [])
    nino = set(made["all"][::-1][0::2])  # made against Nino: every other one, oldest first
    assert seen == [pk for pk in made["won"] if pk in nino]
    assert len(seen) == 12 and len(pages) == 1  # 70 made, every third won, half of them Nino
    lost = sum(_walk(client, "/partidas/?result=lost"), [])
    assert lost == [pk for pk in made["all"] if pk not in made["won"]]
    assert made["all"][-2] in lost  # closed with no winner: among the lost ones
    _ids, links = _page(client, "/partidas/?result=lost")
    assert "result=lost" in links["next"] and "cursor=" in links["next"]
    _ids, links = _page(client, links["next"])
    assert "result=lost" in links["prev"] and "newer=" in links["prev"]
    garabato = sum(_walk(client, "/partidas/?opponent=Garabato"), [])
    assert garabato == [pk for pk in made["all"] if pk not in nino]


@pytest.mark.parametrize(
    "query",
    [
        "cursor=garbage",
        "newer=garbage",
        "cursor=W10=",
        "cursor=WzAsICIyMDI2LTAxLTAxIiwgMV0=",
        *(f"{name}={cursor}" for name in ("cursor", "newer") for cursor in BAD_CURSORS[3:]),
    ],
)
def test_a_cursor_no_page_gave_shows_the_first_page(alice, query):
    """The view's choice (its docstring): the first page, not an error; the last one is a
    cursor of another group of "my tables" (group 0, your turn) with a naive date."""
    made = tables(25, status="finished", players=[alice, "nino"])
    ids, links = _page(_client(alice), f"/partidas/?{query}&result=")
    assert ids == made[:PAGE_SIZE] and "next" in links and "prev" not in links


def test_a_my_turn_cursor_is_not_a_history_cursor(alice, bob):
    made = tables(25, status="finished", players=[alice, "nino"])
    tables(60, status="playing", players=[alice, bob], turn_seat=0)
    following = _client(alice).get("/").context["next_cursor"]  # "Mis mesas", group 0
    ids, _links = _page(_client(alice), f"/partidas/?cursor={following}")
    assert ids == made[:PAGE_SIZE]


def _queries(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("query", ["", "?result=won", "?result=lost&opponent=Garabato"])
def test_the_same_queries_at_2_and_at_60_finished_tables(alice, carol, query):
    _finished_mix(alice, 2)
    _finished_mix(carol, 60)
    few, many = _client(alice), _client(carol)
    counts = [_queries(few, f"/partidas/{query}"), _queries(many, f"/partidas/{query}")]
    ids, links = _page(many, f"/partidas/{query}")
    if "next" in links:
        counts.append(_queries(many, links["next"]))
    assert len(set(counts)) == 1, counts
    # session, user, the page, its seats, the opponents, a savepoint, the time zone the
    # dates are in, and whether it was ever set (notices.context_processors; none once it
    # is, by the page's script)
    assert counts[0] <= 8


def test_the_links_in_english(carol):
    tables(25, status="finished", players=[carol, "nino"])
    client = _client(carol)
    first = client.get("/partidas/").content.decode()
    assert "Older" in first and "Más antiguas" not in first and "Newer" not in first
    _ids, links = _page(client)
    second = client.get(links["next"]).content.decode()
    assert "Newer" in second and 'aria-label="Pages of finished matches"' in second


def test_mallory_never_sees_alices_matches(alice, bob, mallory):
    alices = tables(30, status="finished", players=[alice, bob])
    mallorys = tables(3, status="finished", players=[mallory, "garabato"])
    _ids, links = _page(_client(alice))
    client = _client(mallory)
    # her own page, alice's cursor, alice's opponent, alice herself
    for path in (
        "/partidas/",
        links["next"],
        "/partidas/?opponent=bob",
        "/partidas/?opponent=alice",
    ):
        ids, _links = _page(client, path)
        assert not set(ids) & set(alices)
        assert set(ids) <= set(mallorys)
    page = client.get("/partidas/").content.decode()
    assert "bob" not in page and "alice" not in page  # not even among the opponents offered


def test_only_a_match_with_a_finished_hand_links_to_its_replay(
    api_client_for, alice, generous_rates, django_capture_on_commit_callbacks
):
    """The replay shows finished hands: a match abandoned in its first hand has none, and
    its row leads to the table (the last look, session 6: it led to a 404)."""
    api, rng = api_client_for(alice), random.Random(5)
    made = []
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):  # Nino moves on commit
            made.append(create_table(api, 2, ["nino"], target=50)["id"])
    early, later = made
    while (state := table(api, later))["game"]["hand_number"] == 0:
        with django_capture_on_commit_callbacks(execute=True):
            assert play_one(api, state, rng).status_code == 200
    for table_id in (early, later):
        assert api.post(f"/api/v1/tables/{table_id}/abandon/").status_code == 200
    browser = _client(alice)
    text = browser.get("/partidas/").content.decode()
    assert f'href="/mesas/{early}/"' in text and f"/mesas/{early}/partida/" not in text
    assert f'href="/mesas/{later}/partida/"' in text
    assert browser.get(f"/mesas/{later}/partida/").status_code == 200
    assert browser.get(f"/mesas/{early}/partida/").status_code == 404


def test_a_pairs_match_names_the_partner_as_mis_mesas_does(alice, bob, carol, dave):
    """The history's row title says who played as "Mis mesas" does: the partner first and
    marked, then the rivals in play order (it listed everyone by seat: "con bob, carol,
    dave", the second last look)."""
    from tests.support.pages import seat_friends

    finished = seat_friends(alice, [bob, carol, dave])
    other = tables(1, status="finished", players=[alice, bob])[0]  # a finished seat's list place
    group = Seat.objects.get(table_id=other, index=0)
    Seat.objects.filter(table=finished).update(
        list_group=group.list_group, list_moved_at=group.list_moved_at
    )
    Table.objects.filter(pk=finished.pk).update(status="finished", winners=[0, 2])
    text = " ".join(_client(alice).get("/partidas/").content.decode().split())
    assert f"Mesa {finished.pk}: con carol (tu pareja) contra bob y dave</span>" in text


@pytest.mark.parametrize(
    ("zone", "dated"),
    [
        ("America/Havana", '<time datetime="2030-03-04T21:30:00-05:00">4 mar 2030</time>'),
        (None, '<time datetime="2030-03-05T02:30:00+00:00">5 mar 2030</time>'),
    ],
)
def test_a_match_is_dated_in_the_players_zone(alice, zone, dated):
    """A match over at 02:30 UTC on 5 March was dated "5 mar 2030" for a player in
    Havana, where it was still the 4th (21:30): the dates are in the saved zone, as the
    inbox's; with none saved, in UTC as before."""
    if zone:
        NoticePreferences.objects.create(user=alice, time_zone=zone, time_zone_chosen=True)
    over = datetime(2030, 3, 5, 2, 30, tzinfo=UTC)
    tables(1, status="finished", players=[alice, "nino"], start=over)
    assert dated in _client(alice).get("/partidas/").content.decode()
