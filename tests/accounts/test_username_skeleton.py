"""Look-alikes the skeleton missed (a tester's findings, all signed up beside the name they
read as): letters whose look-alike Unicode lists for the lower case only (``ɑlice`` with a
Latin alpha, ``ɡreg`` with a script g), ``ɒlice``, a name written wholly in Cyrillic that
reads as a Latin one (``һоу`` beside ``hoy``), a letter with a hook, a bar or a stroke
(``ɓob``, ``ꞓarol``, ``hoƴ``), a bot's name in those letters
(``ɡarabato``), and a name that only adds the signs a name may have (``bob_``, ``b.o.b``
beside ``bob``). Each is now refused with the look-alike (or bot) message, on the page and
in the API; names that really differ (``bob2``, ``Ema`` and ``Erna``, ``Дмитрий``) still
sign up (``accounts.models.username_skeleton``). The skeletons stored before are computed
again by a migration each time the skeleton changes (0004 to 0007); nobody is renamed."""

import pytest

from accounts.models import User, username_skeleton
from tests.support.migrations import rows_made_before
from tests.support.signup import LOOK_ALIKE_ES, signup_api, signup_page

BOT_ES = (
    "Ese nombre es el de uno de los bots del sitio: elige otro, para que nadie te tome por un bot."
)

LOOK_ALIKES = [
    ("alice", "\u0251lice"),  # ɑlice, LATIN SMALL LETTER ALPHA
    ("alice", "\u2c6dlice"),  # Ɑlice, its capital
    ("alice", "\u0252lice"),  # ɒlice, LATIN SMALL LETTER TURNED ALPHA
    ("greg", "\u0261reg"),  # ɡreg, LATIN SMALL LETTER SCRIPT G
    ("greg", "\u0261re\u0261"),  # ɡreɡ
    ("yuwa", "\u0263\u028b\u026fa"),  # ɣʋɯa: Latin gamma, v with hook, turned m
    ("hoy", "\u04bb\u043e\u0443"),  # һоу, all Cyrillic
    ("bob", "bob_"),
    ("bob", "b.o.b"),
    ("bob", "_bob"),
    ("bob", "b-ob"),
    ("bob", "bob+"),
    ("bob_", "bob"),
    ("\u0259c\u0259", "\u04d9\u0441\u04d9"),  # Latin əcə, Cyrillic әсә
    ("bob", "\u0253ob"),  # ɓob, LATIN SMALL LETTER B WITH HOOK
    ("carol", "\ua793arol"),  # ꞓarol, LATIN SMALL LETTER C WITH BAR
    ("hoy", "ho\u01b4"),  # hoƴ, LATIN SMALL LETTER Y WITH HOOK
    ("soren", "s\u00f8ren"),  # søren, LATIN SMALL LETTER O WITH STROKE
]


@pytest.mark.django_db
@pytest.mark.parametrize(("existing", "new"), LOOK_ALIKES)
def test_the_api_refuses_a_look_alike_the_skeleton_missed(
    anonymous_client, django_user_model, existing, new
):
    django_user_model.objects.create_user(username=existing, password="x-long-pass-phrase")

    r = signup_api(anonymous_client, new)

    assert r.status_code == 400, r.content
    assert (r.json()["code"], r.json()["fields"]) == ("invalid", {"username": [LOOK_ALIKE_ES]})
    assert list(User.objects.values_list("username", flat=True)) == [existing]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "new"), [("alice", "\u0251lice"), ("hoy", "\u04bb\u043e\u0443"), ("bob", "b.o.b")]
)
def test_the_page_refuses_them_too(client, django_user_model, existing, new):
    django_user_model.objects.create_user(username=existing, password="x-long-pass-phrase")

    r = signup_page(client, new)

    assert r.status_code == 400
    assert LOOK_ALIKE_ES in r.content.decode().replace("&#x27;", "'")
    assert list(User.objects.values_list("username", flat=True)) == [existing]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\u0261arabato", "Queloni\u0251", "\u0261arabato_2"])
def test_a_bots_name_in_look_alike_letters_is_refused(anonymous_client, name):
    r = signup_api(anonymous_client, name)

    assert r.status_code == 400, r.content
    assert r.json()["fields"] == {"username": [BOT_ES]}
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("bob", "bob2"),
        ("erna", "Ema"),
        ("dmitriy", "\u0414\u043c\u0438\u0442\u0440\u0438\u0439"),  # Дмитрий
        ("yoa", "\u0433\u043e\u0430"),  # гоа: a Cyrillic г is no y
        ("anna", "Ana"),
    ],
)
def test_names_that_really_differ_still_sign_up(anonymous_client, django_user_model, existing, new):
    django_user_model.objects.create_user(username=existing, password="x-long-pass-phrase")

    r = signup_api(anonymous_client, new)

    assert r.status_code == 201, r.content
    assert User.objects.count() == 2


def test_a_separator_alone_is_set_aside_but_not_a_digit():
    assert username_skeleton("b.o_b-+") == username_skeleton("bob")
    assert username_skeleton("bob2") != username_skeleton("bob")


def _skeletons_after(migration: str, rows: list[dict]) -> dict[str, str]:
    """Make users (``rows``) at the accounts app's ``migration``, migrate forward as a
    deployment would; each one's username with its skeleton afterwards."""
    apps = rows_made_before([("accounts", migration)], "accounts.User", rows)
    users = apps.get_model("accounts", "User").objects
    return dict(users.values_list("username", "username_skeleton"))


def _user(username: str, key: str, skeleton: str | None = None) -> dict:
    """A user's row as a migration before 0004 (no skeleton) or after it made it."""
    row = {"username": username, "username_key": key}
    return row if skeleton is None else {**row, "username_skeleton": skeleton}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("made_at", "rows", "now"),
    [
        (  # before the skeleton
            "0003_email_addresses",
            [_user("ALICE", "alice"), _user("\u0430lice", "\u0430lice")],
            {"ALICE": "allce", "\u0430lice": "allce"},
        ),
        (  # with accents kept, and "Ꭺbe" through Cherokee
            "0004_username_skeleton",
            [
                _user("\u00c1lice", "\u00e1lice", "\u00e1llce"),
                _user("\u1d00be", "\u1d00be", "\u13aabe"),
            ],
            {"\u00c1lice": "allce", "\u1d00be": "abe"},
        ),
        (  # without the lower case's look-alikes, with the signs
            "0005_username_skeleton_folds_accents",
            [
                _user("\u0251lice", "\u0251lice", "\u0251llce"),
                _user("bob_", "bob_", "bob_"),
                _user("\u04bb\u043e\u0443", "\u04bb\u043e\u0443", "\u04bboy"),
            ],
            {"\u0251lice": "allce", "bob_": "bob", "\u04bb\u043e\u0443": "hoy"},
        ),
        (  # letters with a hook or a bar kept as they were
            "0006_username_skeleton_lower_case_and_signs",
            [_user("\u0253ob", "\u0253ob", "\u0253ob")],
            {"\u0253ob": "bob"},
        ),
    ],
)
def test_stored_skeletons_are_computed_again_and_nobody_is_renamed(made_at, rows, now):
    assert _skeletons_after(made_at, rows) == now
