"""The Content-Security-Policy in Chromium: on the main pages, Swagger UI and the admin the
browser reports no violation (``securitypolicyviolation`` events, recorded by a script
Playwright adds before the page's own) and logs no console error.
"""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Seat
from tests.conftest import PASSWORD
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, play_a_turn, version
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS

RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""


class Watch:
    """A page whose CSP violations and console errors are collected."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def _console(self, message) -> None:
        # Chromium asks every site for /favicon.ico; this one has none (a 404, not a fault).
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            self.errors.append(f"{message.text} ({message.location.get('url')})")

    def visit(self, url: str, ready: str = "main, body") -> None:
        self.page.goto(url)
        self.page.wait_for_selector(ready)
        self.page.wait_for_load_state("networkidle")
        self.check(url)

    def check(self, where: str) -> None:
        violations = self.page.evaluate("window.cspViolations")
        assert violations == [], (where, violations)
        assert self.errors == [], (where, self.errors)


def test_no_violation_on_the_public_pages_and_swagger(live_server, new_page, alice):
    base = live_server.url
    table = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    token = Seat.objects.get(table=table, index=1).invite_token
    watch = Watch(new_page(DESKTOP))
    for path in ["/", "/accounts/login/", "/accounts/signup/", "/reglas/", "/reglas/perfiles/"]:
        watch.visit(f"{base}{path}")
    watch.visit(f"{base}/invitacion/{token}/")
    # Swagger UI draws the operations from the schema with its own scripts and styles.
    watch.visit(f"{base}/api/v1/docs/", ready=".swagger-ui .opblock")
    watch.page.locator(".swagger-ui .opblock-summary").first.click()
    watch.page.wait_for_selector(".swagger-ui .opblock.is-open")
    watch.check("swagger, an operation opened")


def test_no_violation_while_playing(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    watches = []
    for user in (alice, bob):
        watch = Watch(new_page())
        log_in(watch.page, base, user.username)
        watch.visit(f"{base}/mesas/{table.pk}/", ready="#hand button.tile-btn")
        watches.append(watch)
    for path in ["/", "/mesas/nueva/", "/accounts/settings/"]:
        watches[0].visit(f"{base}{path}")
    watches[0].visit(f"{base}/mesas/{table.pk}/", ready="#hand button.tile-btn")
    # A few turns: tiles clicked, the end chosen, the page redrawn from the API's answers.
    for _ in range(3):
        for watch in watches:
            before = version(watch.page)
            if play_a_turn(watch.page):
                assert version(watch.page) > before
            watch.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
            watch.page.wait_for_timeout(200)
    for watch in watches:
        watch.check("the table page after moves")


def test_no_violation_in_the_admin(live_server, new_page, django_user_model, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    watch = Watch(new_page(DESKTOP))
    watch.visit(f"{base}/admin/login/")  # the site's sign-in page (issue 13, finding 3)
    watch.page.fill("#id_username", "root")
    watch.page.fill("#id_password", PASSWORD)
    watch.page.click("main [type=submit]")
    watch.page.wait_for_url(f"{base}/admin/")
    watch.check("admin index")
    for path in [
        "/admin/tables/table/",
        f"/admin/tables/table/{table.pk}/change/",
        "/admin/tables/hand/",
        "/admin/tables/move/",
        "/admin/accounts/user/",
        f"/admin/accounts/user/{alice.pk}/change/",
        "/admin/accounts/user/add/",
    ]:
        watch.visit(f"{base}{path}", ready="#content")
    # The changelist's action bar and its select-all checkbox (admin/js/actions.js).
    watch.visit(f"{base}/admin/accounts/user/", ready="#action-toggle")
    watch.page.check("#action-toggle")
    watch.check("admin actions")


@pytest.mark.parametrize("path", ["/reglas/"])
def test_a_violation_would_be_seen(live_server, new_page, path):
    """The watch is not blind: an inline style added to a page is reported."""
    watch = Watch(new_page())
    watch.page.goto(f"{live_server.url}{path}")
    watch.page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')"
    )
    watch.page.wait_for_timeout(200)
    assert any("style-src" in v for v in watch.page.evaluate("window.cspViolations"))
