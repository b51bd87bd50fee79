"""Bodies of the accounts and notices API with a field they do not take, read by
``test_unknown_fields.py``: a privilege (``is_staff``), another person (``user``), a
misspelt name (``languag``, ``time_zon``), a field of another form (``password2``). DRF
alone skipped each in silence, so ``{"languag": "en"}`` answered 200 and changed nothing,
and a client never learnt its mistake; like the tables' bodies each is now 400
``invalid`` naming the field, and changes nothing at all (even where the rest of the body
is right).

(name, who sends it, method, path, body, the field refused). ``who`` is ``None`` for an
anonymous client, else the actor signed in with a token; ``body`` is a function of the
world's facts (``table``, ``notice``, ``endpoint``, ``token``, ``alice``); the field
``keys.secret`` is ``fields["keys"]["secret"]``."""

from __future__ import annotations

from tests.conftest import PASSWORD  # every actor's
from tests.security.bad_input_account_types import (
    CHANGE,
    DELETE,
    EMAIL,
    LOGIN,
    ME,
    NEW,
    RESET,
    RESET_KEY,
    SIGNUP,
    TOKEN,
    VERIFY,
)
from tests.security.bad_input_notice_types import (
    DEVICES,
    KEYS,
    PHONE,
    PREFERENCES,
    READ,
    SUBSCRIPTIONS,
)
from tests.security.bad_input_notice_types import NEW as NEW_ENDPOINT

ALICE = {"username": "alice", "password": PASSWORD}

UNKNOWN_FIELD_CASES = [
    ("signup: is_staff", None, "post", SIGNUP, lambda f: {**NEW, "is_staff": True}, "is_staff"),
    ("signup: password2", None, "post", SIGNUP, lambda f: {**NEW, "password2": "x"}, "password2"),
    ("login: next", None, "post", LOGIN, lambda f: {**ALICE, "next": "/admin/"}, "next"),
    ("token: scope", None, "post", TOKEN, lambda f: {**ALICE, "scope": "admin"}, "scope"),
    ("me: alice's is_staff", "alice", "patch", ME, lambda f: {"is_staff": True}, "is_staff"),
    ("me: a misspelt language", "alice", "patch", ME, lambda f: {"languag": "en"}, "languag"),
    (
        "me: is_superuser beside a right language",
        "alice",
        "patch",
        ME,
        lambda f: {"language": "en", "is_superuser": True},
        "is_superuser",
    ),
    (
        "me: mallory names alice",
        "mallory",
        "patch",
        ME,
        lambda f: {"user": f["alice"], "pip_colour": "black"},
        "user",
    ),
    (
        "email: mallory names alice",
        "mallory",
        "post",
        EMAIL,
        lambda f: {"email": "mallory2@example.com", "user": f["alice"]},
        "user",
    ),
    ("verify: email", None, "post", VERIFY, lambda f: {"key": "x", "email": "a@b.c"}, "email"),
    (
        "reset: mallory's redirect for alice's address",
        "mallory",
        "post",
        RESET,
        lambda f: {"email": "alice@example.com", "redirect": "https://evil.example/"},
        "redirect",
    ),
    (
        "reset key: password2",
        "mallory",
        "post",
        RESET_KEY,
        lambda f: {"key": "1-abc", "password": "a-long-pass-phrase", "password2": "x"},
        "password2",
    ),
    (
        "change: new_password2",
        "alice",
        "post",
        CHANGE,
        lambda f: {
            "old_password": PASSWORD,
            "new_password": "a-brand-new-pass-phrase",
            "new_password2": "a-brand-new-pass-phrase",
        },
        "new_password2",
    ),
    (
        "delete: confirm",
        "alice",
        "post",
        DELETE,
        lambda f: {"password": PASSWORD, "confirm": True},
        "confirm",
    ),
    ("read: all", "alice", "post", READ, lambda f: {"ids": [f["notice"]], "all": True}, "all"),
    (
        "read: bob names alice",
        "bob",
        "post",
        READ,
        lambda f: {"table": f["table"], "user": f["alice"]},
        "user",
    ),
    (
        "preferences: a misspelt time zone",
        "alice",
        "patch",
        PREFERENCES,
        lambda f: {"time_zon": "America/Havana"},
        "time_zon",
    ),
    (
        "preferences: mallory names alice",
        "mallory",
        "patch",
        PREFERENCES,
        lambda f: {"user": f["alice"], "push_reminder": False},
        "user",
    ),
    (
        "push post: user",
        "mallory",
        "post",
        SUBSCRIPTIONS,
        lambda f: {"endpoint": NEW_ENDPOINT, "keys": KEYS, "user": f["alice"]},
        "user",
    ),
    (
        "push post: a key the keys do not have",
        "alice",
        "post",
        SUBSCRIPTIONS,
        lambda f: {"endpoint": NEW_ENDPOINT, "keys": {**KEYS, "secret": "x"}},
        "keys.secret",
    ),
    (
        "push delete: mallory names alice",
        "mallory",
        "delete",
        SUBSCRIPTIONS,
        lambda f: {"endpoint": f["endpoint"], "user": f["alice"]},
        "user",
    ),
    (
        "phone post: active",
        "alice",
        "post",
        DEVICES,
        lambda f: {"platform": "fcm", "token": PHONE, "active": False},
        "active",
    ),
    (
        "phone post: mallory takes alice's token for alice",
        "mallory",
        "post",
        DEVICES,
        lambda f: {"platform": "fcm", "token": f["token"], "user": f["alice"]},
        "user",
    ),
    (
        "phone delete: mallory names alice",
        "mallory",
        "delete",
        DEVICES,
        lambda f: {"platform": "fcm", "token": f["token"], "user": f["alice"]},
        "user",
    ),
]
