"""The in-app inbox (issue 15): the header's bell with the unread count on every page,
``/avisos/`` newest first with links to the tables, opening a table marks its notices
read; the API ``GET /api/v1/notifications/`` (paginated, ``?unread=1``),
``POST /api/v1/notifications/read/`` and the unread count in ``GET /api/v1/me/``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from notices.models import Notification
from tests.support.api import create_table, join
from tests.support.clock import T0

pytestmark = pytest.mark.django_db


def _table_with(api_client_for, run_tasks, creator, friend) -> int:
    created = create_table(api_client_for(creator), 2, ["friend"])
    with run_tasks():
        join(api_client_for(friend), created["invites"][0]["token"])
    return created["id"]


def _notice(user, table_id: int, kind="friend_joined", key="x", minutes=0) -> Notification:
    return Notification.objects.create(
        recipient=user,
        table_id=table_id,
        kind=kind,
        key=key,
        payload={"table": table_id, "joined": "bob", "others": ["bob"]},
        created_at=T0 + timedelta(minutes=minutes),
    )


def test_the_api_lists_my_notices_newest_first_paginated_and_unread_only(
    clock, api_client_for, run_tasks, alice, bob
):
    table_id = _table_with(api_client_for, run_tasks, alice, bob)
    Notification.objects.all().delete()
    for minute in range(25):
        _notice(alice, table_id, key=str(minute), minutes=minute)
    _notice(bob, table_id, key="bob's")
    client = api_client_for(alice)
    page = client.get("/api/v1/notifications/").json()
    assert page["count"] == 25 and len(page["results"]) == 20 and page["next"]
    first = page["results"][0]
    assert first["kind"] == "friend_joined" and first["table"] == table_id
    assert first["read"] is False and first["path"] == f"/mesas/{table_id}/"
    assert first["text"] == f"bob se sentó a la mesa {table_id}"
    created = [row["created_at"] for row in page["results"]]
    assert created == sorted(created, reverse=True)
    assert len(client.get(page["next"]).json()["results"]) == 5
    english = client.get("/api/v1/notifications/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["results"][0]["text"] == f"bob sat down at table {table_id}"

    ids = [row["id"] for row in page["results"][:3]]
    bobs = Notification.objects.get(recipient=bob).pk
    answer = client.post("/api/v1/notifications/read/", {"ids": [*ids, bobs]}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"marked": 3, "unread": 22}
    assert Notification.objects.get(pk=bobs).read_at is None  # not alice's to mark
    unread = client.get("/api/v1/notifications/?unread=1").json()
    assert unread["count"] == 22
    assert client.get("/api/v1/me/").json()["unread_notifications"] == 22
    answer = client.post("/api/v1/notifications/read/", {"table": table_id}, format="json")
    assert answer.json() == {"marked": 22, "unread": 0}


@pytest.mark.parametrize(
    "body",
    [{}, {"ids": [1], "table": 1}, {"ids": "x"}, {"ids": [0]}, {"table": "one"}],
)
def test_bad_read_requests_are_refused_and_change_nothing(
    clock, api_client_for, run_tasks, alice, bob, body
):
    table_id = _table_with(api_client_for, run_tasks, alice, bob)
    before = Notification.objects.filter(read_at__isnull=True).count()
    answer = api_client_for(alice).post("/api/v1/notifications/read/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert Notification.objects.filter(read_at__isnull=True).count() == before
    assert table_id


@pytest.mark.parametrize("asked, rows", [("1", 1), ("100", 3)])
def test_page_size_is_a_whole_number_from_1_to_100(api_client_for, alice, asked, rows):
    for minute in range(3):
        _notice(alice, None, key=str(minute), minutes=minute)
    page = api_client_for(alice).get("/api/v1/notifications/", {"page_size": asked})
    assert page.status_code == 200 and len(page.json()["results"]) == rows


@pytest.mark.parametrize("asked", ["0", "-1", "101", "1000", "9" * 5000, "dos", "1.5", ""])
def test_any_other_page_size_is_refused_as_for_my_tables(api_client_for, alice, asked):
    """docs/api.md: 1-100, else 400 invalid_page_size (neither clamped nor ignored)."""
    client = api_client_for(alice)
    answer = client.get("/api/v1/notifications/", {"page_size": asked})
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid_page_size"
    assert body["detail"] == "page_size: un número entero de filas (de 1 a 100)."
    assert body["fields"] == {"page_size": [body["detail"]]}
    english = client.get("/api/v1/notifications/", {"page_size": asked}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "page_size: a whole number of rows (1 to 100)."


def test_the_inbox_needs_a_sign_in(anonymous_client):
    assert anonymous_client.get("/api/v1/notifications/").status_code == 401
    assert anonymous_client.post("/api/v1/notifications/read/", {}).status_code == 401


def _bell(html: str) -> str:
    match = re.search(r'<a class="bell[^"]*"[^>]*>.*?</a>', html, re.S)
    assert match, "no bell in the header"
    return match.group(0)


def test_the_bell_shows_the_unread_count_and_the_table_page_clears_it(
    clock, client, api_client_for, run_tasks, alice, bob
):
    table_id = _table_with(api_client_for, run_tasks, alice, bob)
    Notification.objects.all().delete()
    _notice(alice, table_id, key="1")
    _notice(alice, table_id, key="2", minutes=1)
    client.force_login(alice)
    home = client.get("/").content.decode()
    bell = _bell(home)
    assert 'href="/avisos/"' in bell and ">2<" in bell and "Avisos: 2 sin leer" in bell
    inbox = client.get("/avisos/").content.decode()
    assert inbox.count(f'href="/mesas/{table_id}/"') >= 2
    assert f"bob se sentó a la mesa {table_id}" in inbox
    clock.move_to(T0 + timedelta(minutes=5))
    assert client.get(f"/mesas/{table_id}/").status_code == 200  # opening the table
    bell = _bell(client.get("/avisos/").content.decode())
    assert "bell-count" not in bell and "Avisos: 0 sin leer" in bell
    assert not Notification.objects.filter(recipient=alice, read_at__isnull=True).exists()


def test_signed_out_pages_have_no_bell(client):
    assert 'class="bell' not in client.get("/reglas/").content.decode()
