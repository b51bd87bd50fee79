from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from moderation.models import ModerationAction

URL = "/api/v1/me/"
pytestmark = pytest.mark.django_db


def test_it_returns_the_callers_profile(api_client_for, alice):
    r = api_client_for(alice).get(URL)

    assert r.status_code == 200
    assert r.json() == {
        "username": "alice",
        "email": "alice@example.com",
        "email_notifications": True,
        "pip_colour": "coloured",
        "language": "es",
        "unread_notifications": 0,
        "suspended_until": None,
    }


def test_it_requires_authentication(anonymous_client):
    r = anonymous_client.get(URL)

    assert r.status_code == 401
    assert r.json()["code"] == "not_authenticated"
    assert r.headers["WWW-Authenticate"] == "Token"


def test_mallory_cannot_read_someone_elses_profile(api_client_for, alice, mallory):
    client = api_client_for(mallory)

    for url in (URL, f"{URL}?username=alice", f"{URL}?user={alice.pk}"):
        body = client.get(url).json()
        assert body["username"] == "mallory", url
        assert body["email"] == "mallory@example.com", url


def test_mallory_cannot_change_someone_elses_profile(api_client_for, alice, mallory):
    r = api_client_for(mallory).patch(URL, {"username": "alice", "pip_colour": "black"})

    assert r.status_code == 200
    alice.refresh_from_db()
    mallory.refresh_from_db()
    assert alice.pip_colour == "coloured"
    assert mallory.username == "mallory", "username is read-only"
    assert mallory.pip_colour == "black"


def test_it_updates_preferences(api_client_for, alice):
    r = api_client_for(alice).patch(
        URL, {"language": "en", "pip_colour": "black", "email_notifications": False}
    )

    assert r.status_code == 200, r.content
    alice.refresh_from_db()
    assert (alice.language, alice.pip_colour, alice.email_notifications) == (
        "en",
        "black",
        False,
    )


def test_it_rejects_an_unknown_choice_with_a_stable_code(api_client_for, alice):
    r = api_client_for(alice).patch(URL, {"pip_colour": "purple"})

    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "invalid"
    assert list(body["fields"]) == ["pip_colour"]
    alice.refresh_from_db()
    assert alice.pip_colour == "coloured"


def test_it_rejects_a_bad_email(api_client_for, alice):
    r = api_client_for(alice).patch(URL, {"email": "not-an-email"})

    assert r.status_code == 400
    assert r.json()["fields"]["email"]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_rejects_malformed_json(api_client_for, alice):
    r = api_client_for(alice).generic(
        "PATCH", URL, '{"language": ', content_type="application/json"
    )

    assert r.status_code == 400
    assert r.json()["code"] == "malformed_json"


def test_it_rejects_form_encoded_bodies(api_client_for, alice):
    r = api_client_for(alice).patch(
        URL, "language=en", content_type="application/x-www-form-urlencoded"
    )

    assert r.status_code == 415
    assert r.json()["code"] == "unsupported_media_type"
    alice.refresh_from_db()
    assert alice.language == "es"


def test_it_rejects_other_methods(api_client_for, alice):
    r = api_client_for(alice).delete(URL)

    assert r.status_code == 405
    assert r.json()["code"] == "method_not_allowed"
    assert type(alice).objects.filter(pk=alice.pk).exists()


def _suspend(user, *, by, until) -> None:
    ModerationAction.objects.create(
        moderator=by, user=user, kind=ModerationAction.Kind.SUSPEND, reason="insultos", until=until
    )


def test_a_suspended_player_reads_when_the_suspension_ends(api_client_for, alice, bob):
    """An app hides "new table" and "rematch" while a suspension runs (they answer 403
    suspended): the profile says until when, in UTC, as the 403's body does."""
    until = datetime(2031, 3, 5, 2, 30, tzinfo=UTC)
    _suspend(alice, by=bob, until=until)
    _suspend(alice, by=bob, until=timezone.now() - timedelta(days=1))
    body = api_client_for(alice).get(URL).json()
    assert body["suspended_until"] == "2031-03-05T02:30:00+00:00"
    assert (
        api_client_for(alice)
        .post("/api/v1/tables/", {"seats": 2, "target": 100, "others": ["nino"]}, format="json")
        .json()["until"]
        == body["suspended_until"]
    )


def test_an_ended_suspension_reads_null(api_client_for, alice, bob):
    _suspend(alice, by=bob, until=timezone.now() - timedelta(seconds=1))
    assert api_client_for(alice).get(URL).json()["suspended_until"] is None
