"""A page a player may not see (the admin for someone who is not a moderator) or that
does not exist is the site's own page, in Spanish, with a way back: not Django's bare
English "403 Forbidden" / "Not Found"."""

import html
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_mallory_signed_in_at_the_admin_gets_the_sites_403_in_spanish(client, mallory):
    client.force_login(mallory)
    answer = client.get("/admin/", follow=True, HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "No puedes entrar aquí" in page and 'href="/"' in page
    assert "Forbidden" not in page


def test_a_page_that_does_not_exist_is_the_sites_404(client, alice, settings):
    settings.DEBUG = False
    client.force_login(alice)
    answer = client.get("/mesas/999999999/no-such-page/", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 404
    page = answer.content.decode()
    assert "Esta página no existe" in page and "Volver a mis mesas" in page


def _sign_up_twenty_times_from_one_address() -> None:
    from django.test import Client

    for n in range(20):
        answer = Client().post(
            "/accounts/signup/",
            {
                "username": f"nuevo{n}",
                "email": f"nuevo{n}@example.com",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
        )
        assert answer.status_code == 302, answer.content[:300]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "es",
            [
                "Demasiados intentos",
                "Espera un rato y vuelve a probar más tarde",
                "Volver al inicio",
            ],
        ),
        ("en", ["Too many attempts", "Wait a while and try again later", "Back to the home page"]),
    ],
)
def test_allauths_own_limit_on_sign_ups_is_the_sites_429_page(client, language, words):
    """allauth counts 20 sign-ups an hour per address before the site's own limit does:
    the 21st is its 429, rendered from templates/429.html in the site's layout and the
    visitor's language, not its bare English "Too Many Requests"."""
    _sign_up_twenty_times_from_one_address()

    answer = client.post(
        "/accounts/signup/",
        {"username": "otro", "email": "otro@example.com", "password1": "x", "password2": "x"},
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert answer.status_code == 429
    page = answer.content.decode()
    assert all(word in page for word in words), page
    assert 'class="site-header"' in page and 'href="/"' in page
    assert "Too Many Requests" not in page


def _sign_in_with_an_outdated_token(username: str):
    """Two tabs on the sign-in page: the first signs in (Django rotates the CSRF token),
    the second then sends the form, to the address its form names, with the token it was
    given before."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    second_tab = browser.get("/accounts/login/?next=/mesas/nueva/")
    old_token = second_tab.context["csrf_token"]
    form = {
        "login": username,
        "password": PASSWORD,
        "next": "/mesas/nueva/",
        "csrfmiddlewaretoken": old_token,
    }
    first = browser.post("/accounts/login/", form)
    assert first.status_code == 302, first.content[:300]
    action = re.search(r'<form method="post" action="([^"]*)"', second_tab.content.decode())
    return browser.post(html.unescape(action.group(1)), form)


@pytest.mark.parametrize(
    ("player", "words"),
    [
        ("alice", ["La página ha caducado", "Vuelve a abrir la página y prueba otra vez."]),
        ("carol", ["The page has expired", "Open the page again and try once more."]),
    ],
)
def test_a_form_sent_with_an_outdated_token_is_the_sites_403_page(request, settings, player, words):
    """The last look: Django's raw "Prohibido (403) La verificación CSRF ha fallado",
    unstyled; now the site's page (templates/403_csrf.html) in the player's language
    (alice's Spanish, carol's English), with a link that opens the same page anew. The
    second tab sends the form where the sign-in page's form sends it, so the link keeps
    its ``?next=`` only if the form's address does (it was ``/accounts/login/``, and the
    player who tried again lost where they were going)."""
    settings.DEBUG = False
    request.getfixturevalue(player)

    answer = _sign_in_with_an_outdated_token(player)

    assert answer.status_code == 403
    page = answer.content.decode()
    assert all(word in page for word in words), page
    assert 'class="site-header"' in page
    assert 'href="/accounts/login/?next=/mesas/nueva/"' in page
    assert "CSRF" not in page and "Prohibido" not in page and "Forbidden" not in page


@pytest.mark.parametrize(
    ("path", "again"),
    [
        ("//elsewhere.example/accounts/login/", "/"),
        ("///elsewhere.example/", "/"),
        ("/\\elsewhere.example/", "/%5Celsewhere.example/"),
        (
            "/accounts/login/?next=//elsewhere.example/",
            "/accounts/login/?next=//elsewhere.example/",
        ),
    ],
)
def test_the_expired_page_never_links_to_another_host(settings, path, again):
    """The link is built from the request's path, which a crafted request controls: one
    that reads as another host's address ("//elsewhere.example/...", a protocol-relative
    link) gives the home page instead. A query stays (a path on this site; the sign-in
    page itself refuses a ``next`` on another host)."""
    from django.utils.module_loading import import_string

    address, _, query = path.partition("?")
    request = RequestFactory().post("/", PATH_INFO=address, QUERY_STRING=query)
    request.user = AnonymousUser()
    request.session = {}

    answer = import_string(settings.CSRF_FAILURE_VIEW)(request, reason="CSRF token incorrect.")

    assert answer.status_code == 403
    link = re.search(r'<a class="button primary" href="([^"]*)"', answer.content.decode())
    assert html.unescape(link.group(1)) == again
