"""The per-account limit on failed sign-ins (allauth's ``login_failed``, 5 in 5 minutes)
is one bucket per account, whatever names it: its user name in any case or width, or its
e-mail address in any case, on the sign-in page, the session API and the token API. It
used to be keyed by the login as typed, so after 5 wrong passwords for ``alice`` the
address ``alice@example.com`` had 5 more (and ``ALICE`` 5 again)."""

from __future__ import annotations

import pytest

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

PAGE = "/accounts/login/"
SESSION = "/api/v1/accounts/login/"
TOKEN = "/api/v1/accounts/token/"


def _api(client, path: str, login: str, password: str):
    return client.post(path, {"username": login, "password": password}, format="json")


def _page(client, login: str, password: str):
    return client.post(PAGE, {"login": login, "password": password})


@pytest.mark.parametrize(
    ("guessed_as", "then_as"),
    [
        ("alice", "alice@example.com"),
        ("alice@example.com", "alice"),
        ("ALICE", "Alice@Example.com"),
        ("\uff41\uff4c\uff49\uff43\uff45", "alice"),
    ],
)
@pytest.mark.parametrize("then_path", [SESSION, TOKEN])
def test_five_wrong_passwords_lock_the_account_whatever_names_it(
    anonymous_client, alice, guessed_as, then_as, then_path
):
    for _ in range(5):
        answer = _api(anonymous_client, TOKEN, guessed_as, "wrong-guess")
        assert answer.status_code == 400, answer.json()
    locked = _api(anonymous_client, then_path, then_as, PASSWORD)
    assert locked.status_code == 429, locked.json()
    assert locked.json()["code"] == "throttled"


def test_guesses_on_the_page_lock_the_api_by_address(client, anonymous_client, alice):
    for _ in range(5):
        assert _page(client, "alice", "wrong-guess").status_code == 200
    assert _api(anonymous_client, TOKEN, "alice@example.com", PASSWORD).status_code == 429


def test_guesses_in_the_api_lock_the_page_by_address(client, anonymous_client, alice):
    for _ in range(5):
        assert _api(anonymous_client, SESSION, "Alice", "wrong-guess").status_code == 400
    page = _page(client, "ALICE@example.com", PASSWORD)
    assert "_auth_user_id" not in client.session
    assert "Demasiados" in page.content.decode() or page.status_code == 429


def test_another_account_is_not_locked(anonymous_client, alice, bob):
    for _ in range(5):
        _api(anonymous_client, TOKEN, "alice", "wrong-guess")
    assert _api(anonymous_client, TOKEN, "bob@example.com", PASSWORD).status_code == 200


def test_four_guesses_leave_the_right_password_working(anonymous_client, alice):
    for _ in range(4):
        _api(anonymous_client, TOKEN, "alice", "wrong-guess")
    assert _api(anonymous_client, TOKEN, "alice@example.com", PASSWORD).status_code == 200
