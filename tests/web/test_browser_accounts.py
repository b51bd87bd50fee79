"""Issue 17 in a real browser: an invitation opened signed out leads through sign-up and
the verification link (read from the test's mail outbox) back to the seat; a forgotten
password is reset with the mailed link, which then no longer works. Screenshots of every
account page at 390x844 and 1280x800 go to artifacts/.
"""

from __future__ import annotations

import re

from django.core import mail

from tables import services
from tables.models import Seat
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, shot

pytestmark = BROWSER_MARKS

NEW_PASSWORD = "a-brand-new-pass-phrase"


def _link(address: str, path: str) -> str:
    """The last link to ``path…`` mailed to ``address``."""
    bodies = [m.body for m in mail.outbox if address in m.to]
    assert bodies, f"no mail to {address}"
    found = re.search(rf"https?://\S+{re.escape(path)}\S*/", bodies[-1])
    assert found, bodies[-1]
    return found.group(0)


def submit_login(page, login: str, password: str) -> None:
    """Fill and send the sign-in form the page shows."""
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.click("button[type=submit].primary")


def both_sizes(page, name: str) -> None:
    shot(page, f"{name}-phone")
    shot(page, f"{name}-desktop", DESKTOP)
    page.set_viewport_size({"width": 390, "height": 844})


def test_carol_signs_up_through_an_invite_verifies_and_sits(live_server, new_page, alice):
    base = live_server.url
    table = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    invite = f"{base}/invitacion/{Seat.objects.get(table=table, index=1).invite_token}/"
    mail.outbox.clear()

    page = new_page()
    page.goto(invite)
    page.click("text=Crear cuenta")
    both_sizes(page, "account-signup")
    page.fill("#id_username", "carol")
    page.fill("#id_email", "carol@example.com")
    page.fill("#id_password1", NEW_PASSWORD)
    page.fill("#id_password2", NEW_PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(invite)

    page.goto(f"{base}/accounts/settings/")
    assert "sin verificar" in page.inner_text("#correo")
    both_sizes(page, "account-settings-unverified")

    page.goto(_link("carol@example.com", "/accounts/confirm-email/"))
    both_sizes(page, "account-confirm-email")
    page.click("main button[type=submit]")
    page.wait_for_url(invite)
    page.click("text=Sentarme y jugar")
    page.wait_for_url(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#hand button.tile-btn")
    assert Seat.objects.get(table=table, index=1).user.username == "carol"

    page.goto(f"{base}/accounts/settings/")
    assert "verificado" in page.inner_text("#correo")
    both_sizes(page, "account-settings")
    page.goto(f"{base}/accounts/settings/delete/")
    both_sizes(page, "account-delete")
    page.goto(f"{base}/accounts/email/")
    both_sizes(page, "account-email")
    page.goto(f"{base}/accounts/password/change/")
    both_sizes(page, "account-password-change")


def test_alice_resets_her_forgotten_password(live_server, new_page, alice):
    base = live_server.url
    mail.outbox.clear()
    page = new_page()
    page.goto(f"{base}/accounts/login/")
    both_sizes(page, "account-login")
    page.click("text=¿Olvidaste la contraseña?")
    both_sizes(page, "account-reset")
    page.fill("input[name=email]", "alice@example.com")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/accounts/password/reset/done/$"))
    both_sizes(page, "account-reset-done")

    link = _link("alice@example.com", "/accounts/password/reset/key/")
    page.goto(link)
    both_sizes(page, "account-reset-new-password")
    page.fill("input[name=password1]", NEW_PASSWORD)
    page.fill("input[name=password2]", NEW_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/accounts/password/reset/key/done/$"))
    both_sizes(page, "account-reset-changed")

    other = new_page()
    other.goto(link)
    assert other.locator("input[name=password1]").count() == 0, "the link works once"
    both_sizes(other, "account-reset-spent-link")

    page.goto(f"{base}/accounts/login/")
    submit_login(page, "alice@example.com", NEW_PASSWORD)
    page.wait_for_url(f"{base}/")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD) and not alice.check_password(PASSWORD)


def test_the_account_pages_in_english(live_server, new_page, carol):
    base = live_server.url
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    page.goto(f"{base}/accounts/signup/")
    assert "We will send a link to verify it" in page.inner_text("main")
    both_sizes(page, "account-signup-en")
    page.goto(f"{base}/accounts/password/reset/")
    both_sizes(page, "account-reset-en")
    log_in(page, base, "carol")
    page.goto(f"{base}/accounts/settings/")
    assert "Download my data" in page.inner_text("main")
    both_sizes(page, "account-settings-en")


def test_the_admin_signs_in_through_the_site_login(live_server, new_page, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    page = new_page()
    page.goto(f"{live_server.url}/admin/")
    page.wait_for_url(re.compile(r".*/accounts/login/\?next="))
    log_in_next = page.url
    submit_login(page, "root", PASSWORD)
    page.wait_for_url(f"{live_server.url}/admin/")
    assert "next=" in log_in_next
