"""A password erin claims is her current one (to sign in, to change it, to confirm who she
is, to delete her account), holding a NUL (U+0000), is refused exactly as a wrong one is
at that place (the same status, code and sentence) under the live server's hasher,
PBKDF2, and her account, her session and her token stay as they were.

The test settings hash with MD5 (fast), where ``"x\\0"`` and ``"x"`` differ anyway; PBKDF2
gives them one hash, so only a rule of its own refuses the NUL there
(``accounts.models.User.check_password``)."""

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db

ERIN_PASSWORD = "Erin-pass-2468"
WRONG = "Erin-pass-1357"
NEW_PASSWORD = "a-long-pass-phrase"
NULS = ("\x00", "\x00\x00")

# (signed in, path, body with {p} where the claimed password goes)
API_CASES = {
    "delete": (True, "/api/v1/accounts/delete/", {"password": "{p}"}),
    "change": (
        True,
        "/api/v1/accounts/password/change/",
        {"old_password": "{p}", "new_password": NEW_PASSWORD},
    ),
    "token": (False, "/api/v1/accounts/token/", {"username": "erin", "password": "{p}"}),
    "login": (False, "/api/v1/accounts/login/", {"username": "erin", "password": "{p}"}),
}

PAGE_CASES = {
    "delete": (True, "/accounts/settings/delete/", {"password": "{p}"}),
    "change": (
        True,
        "/accounts/password/change/",
        {"oldpassword": "{p}", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    ),
    "reauthenticate": (True, "/accounts/reauthenticate/", {"password": "{p}"}),
    "login": (False, "/accounts/login/", {"login": "erin", "password": "{p}"}),
}


@pytest.fixture
def erin(settings, django_user_model):
    """erin, her password hashed as on the live server (PBKDF2), with an API token."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    user = django_user_model.objects.create_user(
        username="erin", email="erin@example.com", password=ERIN_PASSWORD
    )
    assert user.password.startswith("pbkdf2_sha256$")
    Token.objects.create(user=user)
    return user


def _filled(body: dict, password: str) -> dict:
    return {name: value.replace("{p}", password) for name, value in body.items()}


def _token_works(erin) -> bool:
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=erin).key}")
    return app.get("/api/v1/me/").status_code == 200


def test_pbkdf2_hashes_a_trailing_nul_away():
    """PBKDF2's HMAC pads a key shorter than its block with zero bytes: one salt gives
    ``"Erin-pass-2468\\0"`` the hash of ``"Erin-pass-2468"``, so the hash cannot refuse it."""
    hasher = PBKDF2PasswordHasher()
    salt = hasher.salt()
    assert hasher.encode(ERIN_PASSWORD + "\x00", salt) == hasher.encode(ERIN_PASSWORD, salt)


@pytest.mark.parametrize("case", sorted(API_CASES))
def test_the_api_refuses_a_nul_as_a_wrong_password(case, erin, generous_rates):
    """The bug: ``POST /api/v1/accounts/delete/ {"password": "Erin-pass-2468\\0"}`` was 204
    and erin's account gone, as PBKDF2("Erin-pass-2468\\0") == PBKDF2("Erin-pass-2468")."""
    signed_in, path, body = API_CASES[case]
    app = APIClient()
    if signed_in:
        app.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=erin).key}")
    stored = erin.password

    wrong = app.post(path, _filled(body, WRONG), format="json")
    assert wrong.status_code == 400, wrong.content
    for nul in NULS:
        answer = app.post(path, _filled(body, ERIN_PASSWORD + nul), format="json")

        assert (answer.status_code, answer.json()) == (400, wrong.json()), repr(nul)
        assert User.objects.get(pk=erin.pk).password == stored
        assert _token_works(erin)
        assert Token.objects.filter(user=erin).count() == 1


def _errors(response) -> tuple:
    form = response.context["form"]
    return response.status_code, form.errors.get_json_data()


@pytest.mark.parametrize("case", sorted(PAGE_CASES))
def test_the_pages_refuse_a_nul_as_a_wrong_password(case, erin):
    """On the pages a NUL was "Los caracteres nulos no están permitidos." (Django's forms),
    where a wrong password has its own sentence; now the same as a wrong one."""
    signed_in, path, body = PAGE_CASES[case]
    browser = Client()
    if signed_in:
        browser.force_login(erin)
    stored = erin.password

    wrong = browser.post(path, _filled(body, WRONG))
    assert wrong.context["form"].errors, wrong.status_code
    for nul in NULS:
        answer = browser.post(path, _filled(body, ERIN_PASSWORD + nul))

        assert _errors(answer) == _errors(wrong), repr(nul)
        assert User.objects.get(pk=erin.pk).password == stored
        assert browser.session.get("_auth_user_id") == (str(erin.pk) if signed_in else None)
        assert _token_works(erin)


@pytest.mark.parametrize("case", sorted(PAGE_CASES))
def test_erin_s_own_password_still_works_on_the_pages(case, erin):
    """The same pages take her password as typed (no error on the form)."""
    signed_in, path, body = PAGE_CASES[case]
    browser = Client()
    if signed_in:
        browser.force_login(erin)

    answer = browser.post(path, _filled(body, ERIN_PASSWORD))

    assert answer.status_code == 302, answer.content
