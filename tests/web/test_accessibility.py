"""axe-core 4.14.1 (tests/web/vendor/axe.min.js) on every kind of page, in Chromium at
390x844 and 1280x800: no violation of WCAG 2.0, 2.1 and 2.2 at levels A and AA. Signed out
(home, sign-in and a refused one, sign-up, password reset, a missing page, an invite, the
rule profiles, a public replay), signed in (home, the create form, the inbox and its
preferences, Ajustes, the e-mail, password and deletion pages, the rules, finished
matches), the table page waiting for a friend, at 2, 3 and 4 seats for the player to move
and one who waits, with the report form open, after a hand ended and once the match is
over, the replay with its analysis at a marked move, and the admin's index, report queue,
report page (in its dark theme too) and table page for a moderator. A failure lists each
violation: the page, its rule id, impact, the elements' selectors and axe's help text."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderation.models import Report, TalkMessage
from moderation.services import report_create, talk_post
from tables import services
from tables.models import MatchAnalysis, Seat
from tests.conftest import PASSWORD
from tests.moderation.conftest import moderators_group
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in
from tests.support.finished import quick_finished_table
from tests.support.pages import play_first_moves, player_to_move, seat_friends

pytestmark = BROWSER_MARKS

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
RUN = """tags => axe.run(document, {runOnly: {type: "tag", values: tags}}).then(result =>
  result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map(node => node.target.join(" ")),
  })))"""


def _violations(page, name: str) -> list[str]:
    """axe's violations on ``page`` at both screen sizes, one line each, named ``name``.
    axe is evaluated through the DevTools protocol, which the pages' Content-Security-Policy
    (script-src 'self') does not stop."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE)
        assert page.evaluate("() => axe.version") == "4.14.1"
    found = []
    for label, viewport in (("390x844", PHONE), ("1280x800", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(100)
        for v in page.evaluate(RUN, TAGS):
            found.append(
                f"{name} [{label}] {v['id']} ({v['impact']}): {v['help']}\n    "
                + "\n    ".join(v["targets"])
            )
    page.set_viewport_size(PHONE)
    return found


def _check(page, url: str, name: str, *, ready: str = "main") -> list[str]:
    page.goto(url)
    page.wait_for_selector(ready)
    return _violations(page, name)


def _table(page, base: str, table_id: int, name: str) -> list[str]:
    """The table page once its script drew the hand (or the result) and the talk."""
    page.goto(f"{base}/mesas/{table_id}/")
    page.wait_for_selector("#hand button.tile-btn, #result:not([hidden])")
    page.wait_for_selector("#talk-list", state="attached")
    page.wait_for_timeout(1000)
    return _violations(page, name)


@pytest.fixture
def mod(django_user_model):
    """A moderator: staff in the "Moderadores" group, not a superuser."""
    user = django_user_model.objects.create_user(username="mod", password=PASSWORD)
    user.is_staff = True
    user.save()
    user.groups.add(moderators_group())
    return user


def test_axe_finds_no_wcag_violation_on_any_page(
    live_server, new_page, alice, bob, carol, dave, mod, django_capture_on_commit_callbacks
):
    base = live_server.url
    two = seat_friends(alice, [bob])
    three = seat_friends(bob, [alice, carol])
    four = seat_friends(alice, [bob, carol, dave])
    ended_hand = play_first_moves(seat_friends(carol, [dave]), [carol, dave])
    for table, first, second in (
        (two, alice, bob),
        (four, alice, carol),
        (ended_hand, carol, dave),
    ):
        talk_post(table_id=table.pk, user=first, phrase="good_luck")
        talk_post(table_id=table.pk, user=second, text="¡Gracias, igualmente!")
    finished = quick_finished_table([alice], ["nino"], 5, django_capture_on_commit_callbacks)
    talk_post(table_id=finished.pk, user=alice, text="Buena partida")
    message = TalkMessage.objects.get(table=two, author=bob)
    waiting_for_a_friend = services.table_create(
        creator=alice, seats=2, target=100, others=["friend"]
    )
    invite = Seat.objects.get(table=waiting_for_a_friend, index=1).invite_token
    report = report_create(reporter=alice, table_id=two.pk, reason="insults", message_id=message.pk)
    assert Report.objects.filter(pk=report.pk).exists()

    found = []
    page = new_page()
    found += _check(page, f"{base}/", "home signed out")
    found += _check(page, f"{base}/accounts/login/", "sign-in")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "not-her-password")
    page.click("button[type=submit].primary")
    page.wait_for_selector(".errorlist, .error")
    found += _violations(page, "sign-in refused")
    found += _check(page, f"{base}/accounts/signup/", "sign-up")
    found += _check(page, f"{base}/accounts/password/reset/", "password reset")
    found += _check(page, f"{base}/no-such-page/", "404")
    found += _check(page, f"{base}/invitacion/{invite}/", "invite, signed out")
    found += _check(page, f"{base}/reglas/perfiles/", "rule profiles (help)")

    log_in(page, base, "alice")
    found += _check(page, f"{base}/", "home signed in (Mis mesas)")
    found += _check(page, f"{base}/mesas/nueva/", "create table")
    found += _check(page, f"{base}/avisos/", "inbox")
    found += _check(page, f"{base}/avisos/preferencias/", "notice preferences")
    found += _check(page, f"{base}/accounts/settings/", "Ajustes")
    found += _check(page, f"{base}/reglas/", "rules (help)")
    found += _check(page, f"{base}/partidas/", "Partidas terminadas")
    found += _check(page, f"{base}/accounts/email/", "e-mail address")
    found += _check(page, f"{base}/accounts/password/change/", "password change")
    found += _check(page, f"{base}/accounts/settings/delete/", "account deletion")
    page.goto(f"{base}/mesas/{waiting_for_a_friend.pk}/")
    page.wait_for_selector("#invites:not([hidden])")
    found += _violations(page, "table waiting for a friend")
    mover_two = player_to_move(two, [alice, bob])
    mover_four = player_to_move(four, [alice, bob, carol, dave])
    seated = {"alice": page}
    for user in {mover_two, mover_four} | {alice, bob}:
        if user.username not in seated:
            seated[user.username] = new_page()
            log_in(seated[user.username], base, user.username)
    waiter_two = bob if mover_two == alice else alice
    found += _table(seated[mover_two.username], base, two.pk, "2 seats, your turn")
    waiting = seated[waiter_two.username]
    found += _table(waiting, base, two.pk, "2 seats, waiting")
    waiting.click("#talk-list .talk-message:not(.mine) button:has-text('Reportar')")
    waiting.wait_for_selector("#talk-report:not([hidden])")
    found += _violations(waiting, "2 seats, reporting a message")
    found += _table(page, base, three.pk, "3 seats")
    found += _table(seated[mover_four.username], base, four.pk, "4 seats, your turn")
    waiter_four = next(u for u in (alice, bob) if u != mover_four)
    found += _table(seated[waiter_four.username], base, four.pk, "4 seats, waiting")
    found += _table(page, base, finished.pk, "finished match")
    page.goto(f"{base}/mesas/{finished.pk}/partida/")
    page.wait_for_selector("#analyse:not([hidden])")
    found += _violations(page, "replay")
    page.click("#analyse")
    page.wait_for_selector("#analysis[data-status=done]")
    marked = next(m for m in MatchAnalysis.objects.get(table=finished).result["moves"] if m["mark"])
    for _ in range(marked["hand"]):
        page.keyboard.press("ArrowDown")
    for _ in range(marked["action"] + 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#judgement:not([hidden])")
    found += _violations(page, "replay with its analysis, a marked move")
    page.click("#share-make")
    page.wait_for_selector("#share-link:not([hidden])")
    public = page.get_attribute("#share-link", "href")

    hand_end = new_page()
    log_in(hand_end, base, "dave")
    hand_end.goto(f"{base}/mesas/{ended_hand.pk}/")
    hand_end.wait_for_selector("#last-hand:not([hidden])")
    found += _violations(hand_end, "2 seats, a hand ended")

    visitor = new_page()
    found += _check(visitor, f"{base}{public}", "public replay, signed out", ready="#line")

    moderator = new_page()
    log_in(moderator, base, "mod")
    found += _check(moderator, f"{base}/admin/", "admin index")
    found += _check(moderator, f"{base}/admin/moderation/report/", "admin report queue")
    found += _check(
        moderator,
        f"{base}/admin/moderation/report/{report.pk}/change/",
        "admin report page",
        ready=".mod-talk li.reported",
    )
    found += _check(
        moderator,
        f"{base}/admin/tables/table/{two.pk}/change/",
        "admin table page",
        ready=".mod-game .mod-line",
    )
    moderator.goto(f"{base}/admin/moderation/report/{report.pk}/change/")
    moderator.emulate_media(color_scheme="dark")  # the admin's own dark theme
    found += _violations(moderator, "admin report page, dark")

    assert not found, f"{len(found)} axe violations:\n" + "\n".join(found)
