"""The public replay link (issue 16): a player of a finished match makes its replay public
by an unguessable link (``/partida/<token>/``), which anyone may open signed out, and
revokes it; nothing of a running match is ever reachable that way."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tables import services
from tables.models import PublicReplay
from tests.support.finished import quick_finished_table

pytestmark = pytest.mark.django_db

DATA = re.compile(r'<script id="replay-data" type="application/json">(.*?)</script>', re.S)


@pytest.fixture
def finished(alice, django_capture_on_commit_callbacks):
    return quick_finished_table([alice], ["nino"], 2, django_capture_on_commit_callbacks)


def _path(table) -> str:
    return f"/api/v1/tables/{table.pk}/public-replay/"


def test_a_player_shares_and_anyone_signed_out_sees_it(api_client_for, alice, finished):
    made = api_client_for(alice).post(_path(finished))
    assert made.status_code == 201
    link = made.json()
    assert len(link["token"]) >= 40 and link["path"] == f"/partida/{link['token']}/"
    assert link["url"].endswith(link["path"])
    again = api_client_for(alice).post(_path(finished))
    assert again.status_code == 200 and again.json()["token"] == link["token"]
    page = Client().get(link["path"])
    assert page.status_code == 200
    html = page.content.decode()
    data = json.loads(DATA.search(html).group(1))
    assert data["id"] == finished.pk and data["analysis"] is None
    assert "Analizar la partida" not in html and "Hacer pública" not in html
    record = Client().get(f"{link['path']}registro/")
    assert record.status_code == 200 and record.json()["format"] == "dominoes-record/1"


def test_the_public_page_names_her_seats_only_to_the_player_who_opens_it(
    api_client_for, alice, mallory, finished
):
    """alice opening her own public link reads her seat as "tú" (``your_seats``); signed
    out, or as mallory who did not play, every seat is named in the third person."""
    link = api_client_for(alice).post(_path(finished)).json()
    readers = {"alice": Client(), "mallory": Client(), "signed out": Client()}
    readers["alice"].force_login(alice)
    readers["mallory"].force_login(mallory)
    seen = {
        who: json.loads(DATA.search(reader.get(link["path"]).content.decode()).group(1))
        for who, reader in readers.items()
    }
    assert {who: data["your_seats"] for who, data in seen.items()} == {
        "alice": [0],
        "mallory": [],
        "signed out": [],
    }


def test_revoked_the_link_is_gone(api_client_for, alice, finished):
    link = api_client_for(alice).post(_path(finished)).json()
    assert api_client_for(alice).delete(_path(finished)).status_code == 204
    assert Client().get(link["path"]).status_code == 404
    assert Client().get(f"{link['path']}registro/").status_code == 404
    assert not PublicReplay.objects.exists()
    assert api_client_for(alice).delete(_path(finished)).status_code == 204  # idempotent


def test_mallory_can_neither_share_nor_guess(api_client_for, alice, mallory, finished):
    stranger = api_client_for(mallory)
    assert stranger.post(_path(finished)).status_code == 404
    assert stranger.delete(_path(finished)).status_code == 404
    api_client_for(alice).post(_path(finished))
    assert stranger.delete(_path(finished)).status_code == 404
    assert PublicReplay.objects.filter(table=finished).exists()
    # The table id is not the link: the player-only paths stay 404 for her.
    assert stranger.get(f"/api/v1/tables/{finished.pk}/analysis/").status_code == 404
    assert Client().get("/partida/" + "A" * 43 + "/").status_code == 404
    mallory_browser = Client()
    mallory_browser.force_login(mallory)
    assert mallory_browser.get(f"/mesas/{finished.pk}/partida/").status_code == 404


def test_a_running_match_cannot_be_made_public(api_client_for, alice):
    running = services.table_create(creator=alice, seats=2, target=50, others=["nino"])
    answer = api_client_for(alice).post(_path(running))
    assert answer.status_code == 409 and answer.json()["code"] == "table_not_finished"
    assert not PublicReplay.objects.exists()


def test_the_public_page_shows_the_analysis_once_done(
    api_client_for, alice, finished, django_capture_on_commit_callbacks
):
    link = api_client_for(alice).post(_path(finished)).json()
    with django_capture_on_commit_callbacks(execute=True):
        api_client_for(alice).post(f"/api/v1/tables/{finished.pk}/analysis/")
    data = json.loads(DATA.search(Client().get(link["path"]).content.decode()).group(1))
    assert data["analysis"]["status"] == "done"
    assert data["analysis"]["result"]["seats"] == [0]
    record = Client().get(f"{link['path']}registro/").json()
    assert record["analysis"] == data["analysis"]["result"]


def test_the_public_page_speaks_english_too(api_client_for, alice, finished):
    link = api_client_for(alice).post(_path(finished)).json()
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(link["path"]).content.decode()
    assert "Match analysis" in html and "This match has no analysis yet." in html
    assert "Análisis de la partida" not in html


def test_a_match_abandoned_in_its_first_hand_has_nothing_to_share_or_analyse(
    api_client_for, alice, bob
):
    """alice abandons before any hand ended (R26): the match is over but has no finished
    hand, so there is no replay to share and nothing to analyse (409, nothing created)."""
    created = api_client_for(alice).post(
        "/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]}, format="json"
    )
    table_id = created.json()["id"]
    services.table_abandon(table_id=table_id, user=alice)

    shared = api_client_for(alice).post(f"/api/v1/tables/{table_id}/public-replay/")
    analysed = api_client_for(alice).post(f"/api/v1/tables/{table_id}/analysis/")

    assert (shared.status_code, shared.json()["code"]) == (409, "no_finished_hand")
    assert (analysed.status_code, analysed.json()["code"]) == (409, "no_finished_hand")
    assert not PublicReplay.objects.filter(table_id=table_id).exists()
