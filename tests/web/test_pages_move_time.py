"""The move time on the pages (R27, issue 16): the create form offers 1, 2 (checked), 3
or 7 days; the table page says the table's own."""

import pytest

from tables.models import Table

pytestmark = pytest.mark.django_db


def test_the_form_offers_the_move_times_with_two_days_checked(client, alice):
    client.force_login(alice)
    page = client.get("/mesas/nueva/").content.decode()
    assert "Tiempo por jugada" in page
    for days in (1, 2, 3, 7):
        assert f'name="move_days" value="{days}"' in page
    inputs = [tag for tag in page.split("<input") if 'name="move_days"' in tag]
    checked = [tag for tag in inputs if "checked" in tag]
    assert len(checked) == 1 and 'value="2"' in checked[0]


def test_alice_picks_three_days_and_the_table_page_says_so(client, alice):
    client.force_login(alice)
    r = client.post(
        "/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "friend", "move_days": "3"}
    )
    table = Table.objects.get(creator=alice)
    assert r.status_code == 302 and table.move_seconds == 3 * 86400
    page = client.get(f"/mesas/{table.pk}/").content.decode()
    assert "Tiempo por jugada: 3 días" in page


def test_a_move_time_not_offered_is_refused_and_creates_nothing(client, alice):
    client.force_login(alice)
    r = client.post(
        "/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "friend", "move_days": "5"}
    )
    assert r.status_code == 400
    assert not Table.objects.exists()


def test_in_english_the_page_says_days(client, alice):
    alice.language = "en"
    alice.save()
    client.force_login(alice)
    client.post("/mesas/nueva/", {"seats": 2, "target": 50, "seat_1": "friend", "move_days": "1"})
    table = Table.objects.get(creator=alice)
    page = client.get(f"/mesas/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Time per move: 1 day" in page
