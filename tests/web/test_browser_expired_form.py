"""The expired-form page in Chromium: a form of the header ("Cambiar" the language,
"Salir") sent from a page whose CSRF token is outdated gets "La página ha caducado", and
its "Abrir la página de nuevo" opens the page the form was on (the Referer Chromium
sends under the site's ``Referrer-Policy: same-origin``), not the form's POST-only
address, which answered a bare 405. Screenshots at 390x844 and 1280x800 go to
artifacts/."""

from __future__ import annotations

import pytest

from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in

pytestmark = BROWSER_MARKS

PAGE = "/reglas/?desde=menu"


def _on_the_page_with_an_outdated_token(live_server, new_page, viewport):
    """alice on ``PAGE`` at ``viewport``, her CSRF cookie then replaced, as signing in or
    out in another tab rotates it: the token in the page's forms no longer matches.
    Returns the page and the server's address."""
    base = live_server.url
    page = signed_in(new_page, base, "alice")
    page.set_viewport_size(viewport)
    page.goto(f"{base}{PAGE}")
    page.context.add_cookies(
        [{"name": "csrftoken", "value": "x" * 32, "url": base}]  # a well-formed secret
    )
    return page, base


@pytest.mark.parametrize(("form", "viewport"), [("lang", PHONE), ("logout", DESKTOP)])
def test_the_expired_page_of_a_header_form_opens_the_page_it_was_on_again(
    live_server, new_page, alice, form, viewport
):
    page, base = _on_the_page_with_an_outdated_token(live_server, new_page, viewport)

    if viewport == PHONE:
        page.click("#site-menu summary")
    if form == "lang":
        page.select_option("#lang-select", "en")
        page.click("form.lang button[type=submit]")
    else:
        page.click("form[action='/accounts/logout/'] button[type=submit]")

    page.wait_for_selector("text=La página ha caducado")
    again = page.locator("a.button.primary", has_text="Abrir la página de nuevo")
    assert again.get_attribute("href") == PAGE
    shot(page, f"expired-{form}", viewport)
    again.click()
    page.wait_for_url(f"{base}{PAGE}")
    assert page.locator("h1").count() and "caducado" not in page.content()


def test_the_language_switch_on_the_expired_page_goes_back_to_the_page_too(
    live_server, new_page, alice
):
    """The expired page's own header switch sent the player back to the address on the
    location bar, the language switch's POST-only one (a 405): now to the page again."""
    page, base = _on_the_page_with_an_outdated_token(live_server, new_page, DESKTOP)
    page.click("form.lang button[type=submit]")
    page.wait_for_selector("text=La página ha caducado")

    page.select_option("#lang-select", "en")
    page.click("form.lang button[type=submit]")

    page.wait_for_url(f"{base}{PAGE}")
    assert page.locator("html").get_attribute("lang") == "en"
