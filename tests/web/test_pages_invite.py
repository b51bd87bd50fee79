"""The share link: who invites you, sign up without losing it, one tap to sit (R30)."""

import pytest

from tables import services
from tables.models import Seat, Table
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def invite(alice):
    table = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    token = Seat.objects.get(table=table, index=1).invite_token
    return table, f"/invitacion/{token}/"


def test_a_signed_out_visitor_sees_who_invites_and_how_to_join(client, invite):
    _table, path = invite

    r = client.get(path)

    page = r.content.decode()
    assert r.status_code == 200
    assert "alice te invita a jugar" in page
    assert f'href="/accounts/signup/?next={path}"' in page
    assert f'href="/accounts/login/?next={path}"' in page


def test_signing_up_through_the_invite_comes_back_to_it_and_one_tap_sits(client, invite):
    table, path = invite

    r = client.post(
        "/accounts/signup/",
        {
            "username": "ana",
            # issue 17: an e-mail is required now (this test posted an empty one before).
            "email": "ana@example.com",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": path,
        },
    )
    assert r.status_code == 302
    assert r.headers["Location"] == path

    page = client.get(path).content.decode()
    assert "Sentarme y jugar" in page

    r = client.post(path)

    assert r.status_code == 302
    assert r.headers["Location"] == f"/mesas/{table.pk}/"
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Seat.objects.get(table=table, index=1).user.username == "ana"


def test_logging_in_through_the_invite_comes_back_to_it(client, invite, bob):
    _table, path = invite

    r = client.post("/accounts/login/", {"username": "bob", "password": PASSWORD, "next": path})

    assert r.headers["Location"] == path


def test_a_signed_out_post_goes_to_login(client, invite):
    table, path = invite

    r = client.post(path)

    assert r.status_code == 302
    assert r.headers["Location"].startswith("/accounts/login/?next=")
    assert Seat.objects.get(table=table, index=1).user is None


def test_the_creator_opening_their_own_link_lands_on_the_table(client, invite, alice):
    table, path = invite
    client.force_login(alice)

    r = client.get(path)

    assert r.headers["Location"] == f"/mesas/{table.pk}/"


def test_a_used_or_unknown_link_says_so(client, invite, bob, carol):
    _table, path = invite
    client.force_login(bob)
    client.post(path)
    client.force_login(carol)

    r = client.get(path)

    assert r.status_code == 404
    assert "is no longer valid" in r.content.decode()  # carol reads English
    assert client.get("/invitacion/nope/").status_code == 404
    assert client.post(path).status_code == 404


def test_it_speaks_english(client, invite):
    _table, path = invite

    page = client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "alice invites you to play dominoes" in page
