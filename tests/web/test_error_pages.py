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
        ("/\\elsewhere.example/", "/"),
        (
            "/accounts/login/?next=//elsewhere.example/",
            "/accounts/login/?next=//elsewhere.example/",
        ),
    ],
)
def test_the_expired_page_never_links_to_another_host(settings, path, again):
    """The link is built from the request's path, which a crafted request controls: one
    that reads as another host's address ("//elsewhere.example/...", a protocol-relative
    link) gives the home page instead, as "/\\elsewhere.example/" does (no page of this
    site). A query stays (a path on this site; the sign-in page itself refuses a
    ``next`` on another host)."""
    assert _expired_page_link(settings, path) == again


def _expired_page_link(settings, path: str, **headers) -> str:
    """The "Abrir la página de nuevo" link of the CSRF failure view's page for a form
    POSTed to ``path`` (with its query) with ``headers`` (``HTTP_REFERER``...)."""
    from django.utils.module_loading import import_string

    address, _, query = path.partition("?")
    request = RequestFactory().post("/", PATH_INFO=address, QUERY_STRING=query, **headers)
    request.user = AnonymousUser()
    request.session = {}

    answer = import_string(settings.CSRF_FAILURE_VIEW)(request, reason="CSRF token incorrect.")

    assert answer.status_code == 403
    return _again_link(answer)


def _again_link(answer) -> str:
    """The href of the expired page's "Abrir la página de nuevo"."""
    link = re.search(r'<a class="button primary" href="([^"]*)"', answer.content.decode())
    return html.unescape(link.group(1))


#: Forms whose address takes only a POST: the header's language switch and "Salir" (on
#: every page), "Jugar ya contra los bots", "Volver a oír", "Cerrar las demás sesiones".
POST_ONLY = [
    "/i18n/setlang/",
    "/accounts/logout/",
    "/mesas/contra-los-bots/",
    "/charla/silencios/7/quitar/",
    "/accounts/settings/sign-out-everywhere/",
]


@pytest.mark.parametrize("address", POST_ONLY)
def test_the_expired_page_of_a_post_only_address_links_to_the_page_the_form_was_on(alice, address):
    """The link was the address the form was sent to, which answers a GET with a bare
    405; it is now the page the form was on (the ``Referer``), opened anew with its
    query, and the home page when the browser sent no ``Referer``."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    browser.get("/accounts/settings/")  # the CSRF cookie, as any page sets it
    form = {"csrfmiddlewaretoken": "an-outdated-token-of-another-session-0123456789abcdef"}
    page = "http://testserver/partidas/?page=2"

    links = []
    for headers in ({"HTTP_REFERER": page}, {}):
        answer = browser.post(address, form, **headers)
        assert answer.status_code == 403, answer.content[:300]
        assert "La página ha caducado" in answer.content.decode()
        links.append(_again_link(answer))

    assert links == ["/partidas/?page=2", "/"]
    assert browser.get(links[0]).status_code == 200


@pytest.mark.parametrize(
    ("referer", "posted", "again"),
    [
        # a page of this site: its path and query, never the absolute address
        ("http://testserver/mesas/nueva/", "/mesas/contra-los-bots/", "/mesas/nueva/"),
        (
            "http://testserver/accounts/login/?next=/mesas/3/",
            "/i18n/setlang/",
            "/accounts/login/?next=/mesas/3/",
        ),
        # another host's page, or one of this site's that reads as another host's
        ("https://elsewhere.example/mesas/nueva/", "/i18n/setlang/", "/"),
        ("http://testserver//elsewhere.example/", "/i18n/setlang/", "/"),
        ("http://testserver/\\elsewhere.example/", "/i18n/setlang/", "/"),
        ("javascript:alert(1)", "/i18n/setlang/", "/"),
        ("/mesas/nueva/", "/i18n/setlang/", "/"),
        # a Referer that is no page, or a POST-only one: the posted page when it is one
        ("http://testserver/no-such-page/", "/mesas/nueva/", "/mesas/nueva/"),
        ("http://testserver/accounts/logout/", "/accounts/settings/", "/accounts/settings/"),
        ("", "/accounts/signup/?next=/invitacion/x/", "/accounts/signup/?next=/invitacion/x/"),
    ],
)
def test_the_expired_page_takes_the_referer_only_as_a_page_of_this_site(
    settings, referer, posted, again
):
    assert _expired_page_link(settings, posted, HTTP_REFERER=referer) == again


def test_a_referer_over_plain_http_is_not_taken_for_an_https_page(settings):
    link = _expired_page_link(
        settings, "/i18n/setlang/", HTTP_REFERER="http://testserver/mesas/nueva/", secure=True
    )
    assert link == "/"
