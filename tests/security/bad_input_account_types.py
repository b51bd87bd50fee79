"""Bad-input cases for the accounts API's bodies: a text field (a username, an e-mail, a
password, a key) given another JSON type, read by ``test_bad_input_accounts.py``. DRF alone
would read ``123`` as "123" (a sign-up with the username "123"); like the tables' and
talk's bodies each is 400 ``invalid`` with the field in ``fields``, and changes nothing.

(name, who sends it, method, path, body, the field refused). ``who``: ``None`` for an
anonymous client, else the actor signed in with a token. Every other field of a body is
right, so the type alone is what is refused."""

from __future__ import annotations

from tests.conftest import PASSWORD  # every actor's

SIGNUP = "/api/v1/accounts/signup/"
LOGIN = "/api/v1/accounts/login/"
TOKEN = "/api/v1/accounts/token/"
ME = "/api/v1/me/"
EMAIL = "/api/v1/accounts/email/"
VERIFY = "/api/v1/accounts/email/verify/"
RESET = "/api/v1/accounts/password/reset/"
RESET_KEY = "/api/v1/accounts/password/reset/key/"
CHANGE = "/api/v1/accounts/password/change/"
DELETE = "/api/v1/accounts/delete/"

#: Right values for every field, a case replaces one of them.
NEW = {"username": "zoe", "email": "zoe@example.com", "password": "a-long-pass-phrase"}

ACCOUNT_TYPE_CASES = [
    ("signup: username number", None, "post", SIGNUP, {**NEW, "username": 123}, "username"),
    ("signup: username true", None, "post", SIGNUP, {**NEW, "username": True}, "username"),
    ("signup: username list", None, "post", SIGNUP, {**NEW, "username": ["zoe"]}, "username"),
    ("signup: username object", None, "post", SIGNUP, {**NEW, "username": {"a": 1}}, "username"),
    ("signup: email number", None, "post", SIGNUP, {**NEW, "email": 5}, "email"),
    ("signup: password number", None, "post", SIGNUP, {**NEW, "password": 12345678901}, "password"),
    (
        "login: mallory names alice in a list",
        "mallory",
        "post",
        LOGIN,
        {"username": ["alice"], "password": PASSWORD},
        "username",
    ),
    (
        "login: password number",
        None,
        "post",
        LOGIN,
        {"username": "alice", "password": 1},
        "password",
    ),
    (
        "token: username number",
        None,
        "post",
        TOKEN,
        {"username": 7, "password": PASSWORD},
        "username",
    ),
    (
        "token: password true",
        None,
        "post",
        TOKEN,
        {"username": "alice", "password": True},
        "password",
    ),
    ("me: email number", "alice", "patch", ME, {"email": 42}, "email"),
    ("me: email list", "alice", "patch", ME, {"email": ["a@example.com"]}, "email"),
    ("email: number", "alice", "post", EMAIL, {"email": 42}, "email"),
    ("verify: key number", None, "post", VERIFY, {"key": 123456}, "key"),
    ("reset: email list", None, "post", RESET, {"email": ["alice@example.com"]}, "email"),
    ("reset key: key number", None, "post", RESET_KEY, {"key": 1, "password": "x" * 12}, "key"),
    (
        "reset key: mallory sends a number as alice's new password",
        "mallory",
        "post",
        RESET_KEY,
        {"key": "1-abc", "password": 12345678901},
        "password",
    ),
    (
        "change: old_password number",
        "alice",
        "post",
        CHANGE,
        {"old_password": 1, "new_password": "a-brand-new-pass-phrase"},
        "old_password",
    ),
    (
        "change: new_password number",
        "alice",
        "post",
        CHANGE,
        {"old_password": PASSWORD, "new_password": 123456789012},
        "new_password",
    ),
    ("delete: password number", "alice", "post", DELETE, {"password": 123}, "password"),
    ("delete: password object", "alice", "post", DELETE, {"password": {"p": PASSWORD}}, "password"),
]
