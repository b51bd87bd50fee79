"""Browser pages: sign-in, sign-up, settings; `next` survives the whole way."""

import pytest

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

INVITE = "/mesas/42/unirse/?code=abc"


def test_the_login_page_is_spanish_by_default(client):
    r = client.get("/accounts/login/")

    assert r.status_code == 200
    assert "Contraseña" in r.content.decode()
    assert r.headers["Content-Language"] == "es"


def test_the_login_page_speaks_english_when_asked(client):
    r = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")

    assert "Password" in r.content.decode()


def test_it_signs_in_and_follows_next(client, alice):
    r = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD, "next": INVITE})

    assert r.status_code == 302
    assert r.headers["Location"] == INVITE
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_ignores_a_next_on_another_site(client, alice):
    r = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD, "next": "https://evil.example/"},
    )

    assert r.headers["Location"] == "/"


def test_the_login_link_carries_next_to_signup(client):
    r = client.get(f"/accounts/login/?next={INVITE}")

    assert "/accounts/signup/?next=/mesas/42/unirse/%3Fcode%3Dabc" in r.content.decode()


def test_signup_keeps_next_and_signs_the_newcomer_in(client):
    page = client.get("/accounts/signup/", {"next": INVITE}).content.decode()
    assert 'name="next" value="/mesas/42/unirse/?code=abc"' in page

    r = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            # issue 17: an e-mail is required now (this test posted an empty one before).
            "email": "newbie@example.com",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": INVITE,
        },
    )

    assert r.status_code == 302
    assert r.headers["Location"] == INVITE
    user = User.objects.get(username="newbie")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_shows_password_errors(client):
    r = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "123", "password2": "123"},
    )

    assert r.status_code == 400
    assert not User.objects.filter(username="newbie").exists()


def test_the_browser_login_is_throttled(client, alice):
    for _ in range(20):
        client.post("/accounts/login/", {"username": "alice", "password": "guess"})

    r = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert r.status_code == 429
    assert "_auth_user_id" not in client.session


def test_logout_is_post_only(client, alice):
    client.force_login(alice)

    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_settings_needs_a_login(client):
    r = client.get("/accounts/settings/")

    assert r.status_code == 302
    assert r.headers["Location"] == "/accounts/login/?next=/accounts/settings/"


def test_settings_saves_preferences_and_switches_language(client, alice):
    client.force_login(alice)

    r = client.post("/accounts/settings/", {"language": "en", "pip_colour": "black"}, follow=True)

    alice.refresh_from_db()
    assert (alice.language, alice.pip_colour, alice.email_notifications) == (
        "en",
        "black",
        True,  # the e-mail switch is the "Avisos" section's, left alone here
    )
    assert "Preferences saved." in r.content.decode()


def test_a_signed_in_user_gets_their_saved_language(client, carol):
    client.force_login(carol)

    r = client.get("/accounts/settings/")

    assert r.headers["Content-Language"] == "en"


def test_the_header_language_switch_also_saves_a_players_language(client, alice):
    """Mails follow the language the player picked in the header, not only the pages."""
    client.force_login(alice)
    r = client.post("/i18n/setlang/", {"language": "en", "next": "/reglas/"})

    assert r.status_code == 302
    assert r.headers["Location"] == "/reglas/"
    assert r.cookies["django_language"].value == "en"
    alice.refresh_from_db()
    assert alice.language == "en"


def test_the_language_switch_works_signed_out_and_ignores_unknown_languages(client, alice):
    r = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert r.status_code == 302
    assert r.cookies["django_language"].value == "en"

    client.force_login(alice)
    client.cookies.pop("django_language")
    for unknown in ("xx", "fr", "", "en; drop"):
        r = client.post("/i18n/setlang/", {"language": unknown, "next": "/"})
        assert r.status_code == 302
        assert "django_language" not in r.cookies, unknown
    alice.refresh_from_db()
    assert alice.language == "es"
    assert client.get("/i18n/setlang/").status_code == 405


@pytest.mark.parametrize("variant", ["en-US", "EN", "en-gb"])
def test_a_language_variant_counts_as_the_site_language(client, alice, variant):
    client.force_login(alice)
    r = client.post("/i18n/setlang/", {"language": variant, "next": "/"})

    assert r.cookies["django_language"].value == "en"
    alice.refresh_from_db()
    assert alice.language == "en"


def test_the_sign_in_page_says_what_the_site_is_and_links_the_rules(client):
    page = client.get("/accounts/login/?next=/").content.decode()

    assert "Dominó por correspondencia" in page
    assert 'href="/reglas/"' in page


def test_the_header_sign_in_link_on_the_sign_in_page_does_not_nest_next(client):
    page = client.get("/accounts/login/?next=/mesas/3/").content.decode()
    assert 'href="/accounts/login/?next=/mesas/3/"' in page
    assert "next%3D" not in page
    page = client.get("/accounts/signup/?next=/mesas/3/").content.decode()
    assert 'href="/accounts/login/?next=/mesas/3/"' in page
    assert "next%3D" not in page


def test_pages_have_a_favicon(client):
    page = client.get("/accounts/login/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in page
    r = client.get("/favicon.ico")
    assert (r.status_code, r.headers["Location"]) == (301, "/static/favicon.svg")
