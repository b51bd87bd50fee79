"""Regression tests for issue 13's account findings (each named for its finding).

Finding 3: ``/admin/login/`` had no rate limit, and the API's token and session logins
were limited per client address only, so a rotating address could guess one player's
password without end. Finding 6: sign-up answered 500 for a full-width username equal to
a taken one after NFKC and for an over-long e-mail, and two racing sign-ups of the same
name in different case both succeeded.
"""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = "/api/v1/accounts/signup/"
GOOD = "a-long-pass-phrase"
TAKEN_ES = "Ya existe un usuario con este nombre."  # what the form's own check says
TAKEN_EN = "A user with that username already exists."


def _address(index: int) -> str:
    return f"198.51.100.{index % 250 + 1}"


# --- finding 6: sign-up ---------------------------------------------------------------


def test_finding_6_a_fullwidth_username_equal_to_a_taken_one_is_400(anonymous_client, alice):
    r = anonymous_client.post(
        SIGNUP, {"username": "ａｌｉｃｅ", "password": GOOD, "email": "other@example.com"}
    )

    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid"
    assert r.json()["fields"]["username"]
    assert User.objects.count() == 1


def test_finding_6_an_email_of_306_characters_is_400(anonymous_client):
    email = "a" * 294 + "@example.com"
    assert len(email) == 306

    r = anonymous_client.post(SIGNUP, {"username": "zoe", "password": GOOD, "email": email})

    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid"
    assert r.json()["fields"]["email"]
    assert not User.objects.filter(username="zoe").exists()


def test_finding_6_usernames_are_unique_in_the_database_whatever_the_case_and_width(db):
    User.objects.create_user(username="racer1", password=PASSWORD)

    for twin in ("RACER1", "Racer1", "ｒａｃｅｒ1"):
        with pytest.raises(IntegrityError), transaction.atomic():
            User.objects.create(username=twin)
    assert User.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_finding_6_ten_racing_signups_of_one_name_in_two_cases_create_one():
    racers = 10
    barrier = threading.Barrier(racers)
    results: list[object] = [None] * racers

    def run(index: int) -> None:
        try:
            client = APIClient(REMOTE_ADDR=_address(index))
            name = "racer7" if index % 2 else "RACER7"
            barrier.wait(timeout=30)
            r = client.post(
                SIGNUP, {"username": name, "password": GOOD, "email": f"r{index}@example.com"}
            )
            results[index] = (r.status_code, r.json())
        except BaseException as error:  # shown below with the thread's index
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    statuses = []
    for index, result in enumerate(results):
        assert isinstance(result, tuple), f"sign-up {index} did not answer: {result!r}"
        status, body = result
        statuses.append(status)
        if status != 201:
            assert (status, body["code"]) == (400, "invalid"), body
            assert body["fields"]["username"], body
    assert statuses.count(201) == 1, statuses
    assert User.objects.filter(username__iexact="racer7").count() == 1


# --- finding 3: logins limited per address and per username ----------------------------


def _guess(path: str, index: int, data: dict):
    """POST ``data`` from address number ``index``: JSON to the API, a form to a page."""
    if path.startswith("/api/"):
        client = APIClient(REMOTE_ADDR=_address(index))
    else:
        client = Client(REMOTE_ADDR=_address(index))
    return client, client.post(path, data)


@pytest.mark.parametrize("path", ["/api/v1/accounts/token/", "/api/v1/accounts/login/"])
def test_finding_3_api_logins_are_limited_per_username_from_rotating_addresses(path, alice):
    for index in range(10):
        _guess(path, index, {"username": "alice", "password": f"guess-{index}"})

    client, r = _guess(path, 99, {"username": "alice", "password": PASSWORD})

    assert r.status_code == 429, r.content
    assert r.json()["code"] == "throttled"
    assert "token" not in r.json()
    assert "_auth_user_id" not in client.session


def test_finding_3_the_browser_login_is_limited_per_username_from_rotating_addresses(alice):
    for index in range(10):
        _guess("/accounts/login/", index, {"username": "alice", "password": f"guess-{index}"})

    client, r = _guess("/accounts/login/", 99, {"username": "alice", "password": PASSWORD})

    assert "_auth_user_id" not in client.session
    assert r.status_code in (200, 429)


def test_finding_3_admin_login_is_limited_per_username_from_rotating_addresses(
    django_user_model,
):
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    for index in range(10):
        _guess("/admin/login/", index, {"username": "root", "password": f"guess-{index}"})

    client, r = _guess("/admin/login/?next=/admin/", 99, {"username": "root", "password": PASSWORD})

    assert "_auth_user_id" not in client.session, "a guessed admin password still signs in"
    assert client.get("/admin/").status_code == 302


def test_finding_3_admin_login_is_limited_per_address(django_user_model):
    """Thirty wrong passwords for thirty staff names from one address (rotating
    X-Forwarded-For, which is not trusted): the next correct one does not sign in."""
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    client = Client(REMOTE_ADDR="203.0.113.9")
    for index in range(30):
        client.post(
            "/admin/login/",
            {"username": f"staff{index}", "password": "guess"},
            HTTP_X_FORWARDED_FOR=_address(index),
        )

    client.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})

    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("name", ["ﷺ" * 20, "a" * 151])
def test_finding_6_a_name_longer_than_150_after_nfkc_is_400(anonymous_client, name):
    r = anonymous_client.post(SIGNUP, {"username": name, "password": GOOD, "email": "z@x.org"})

    assert r.status_code == 400, r.content
    assert (r.json()["code"], list(r.json()["fields"])) == ("invalid", ["username"])
    assert User.objects.count() == 0


def test_finding_6_a_name_that_case_folding_lengthens_still_signs_up(anonymous_client):
    r = anonymous_client.post(SIGNUP, {"username": "ß" * 30, "password": GOOD, "email": "z@x.org"})

    assert r.status_code == 201, r.content
    assert User.objects.get().username_key == "ss" * 30  # 30: USERNAME_MAX_LENGTH


def _skip_the_name_check(monkeypatch):
    """Let a sign-up past the form's check, as the slower of two racing sign-ups gets
    past it before the faster one has committed: only the database can refuse it then."""
    from accounts.adapter import AccountAdapter

    original = AccountAdapter.clean_username
    monkeypatch.setattr(
        AccountAdapter,
        "clean_username",
        lambda self, username, shallow=False: original(self, username, shallow=True),
    )


def test_finding_6_a_racing_api_signup_that_reaches_the_insert_is_400(
    anonymous_client, alice, monkeypatch
):
    _skip_the_name_check(monkeypatch)

    r = anonymous_client.post(
        SIGNUP, {"username": "ALICE", "password": GOOD, "email": "a2@example.com"}
    )

    assert r.status_code == 400, r.content
    assert (r.json()["code"], r.json()["fields"]) == ("invalid", {"username": [TAKEN_ES]})
    assert User.objects.count() == 1


def test_a_racing_signup_is_told_what_a_slower_one_would_be(anonymous_client, alice, monkeypatch):
    """One wording for a taken name, whether the form's check or the insert refused it."""
    told = anonymous_client.post(
        SIGNUP,
        {"username": "ALICE", "password": GOOD, "email": "a2@example.com"},
        HTTP_ACCEPT_LANGUAGE="en",
    ).json()["fields"]
    _skip_the_name_check(monkeypatch)

    r = anonymous_client.post(
        SIGNUP,
        {"username": "ALICE", "password": GOOD, "email": "a2@example.com"},
        HTTP_ACCEPT_LANGUAGE="en",
    )

    assert r.json()["fields"] == told == {"username": [TAKEN_EN]}


def test_finding_6_a_racing_page_signup_that_reaches_the_insert_is_400(client, alice, monkeypatch):
    _skip_the_name_check(monkeypatch)

    r = client.post(
        "/accounts/signup/",
        {
            "username": "Alice",
            "email": "a2@example.com",
            "password1": GOOD,
            "password2": GOOD,
        },
    )

    assert r.status_code == 400
    assert TAKEN_ES in r.content.decode()
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("path", ["/accounts/login/", "/api/v1/accounts/token/"])
def test_finding_3_logins_are_limited_per_address_whatever_x_forwarded_for(path, alice):
    """Twenty wrong passwords for twenty names from one socket address, each with another
    X-Forwarded-For (not trusted: NUM_PROXIES is 0): alice's right one is refused next."""
    client = APIClient(REMOTE_ADDR="203.0.113.7") if path.startswith("/api/") else None
    client = client or Client(REMOTE_ADDR="203.0.113.7")
    for index in range(20):
        client.post(
            path,
            {"username": f"someone{index}", "password": "guess"},
            HTTP_X_FORWARDED_FOR=_address(index),
        )

    r = client.post(
        path, {"username": "alice", "password": PASSWORD}, HTTP_X_FORWARDED_FOR=_address(99)
    )

    assert "_auth_user_id" not in client.session
    assert r.status_code != 302
    if path.startswith("/api/"):
        assert (r.status_code, r.json()["code"]) == (429, "throttled")
