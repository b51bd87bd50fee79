"""A suspended player's rematch buttons in a real browser (Chromium via Playwright): bob,
suspended, sees on his finished table with alice the suspension's sentence instead of
"Revancha"; offered alice's rematch he sees it instead of "Aceptar la revancha" and may
still decline; alice, suspended while her page was open, clicks "Revancha" and reads the
refusal on the message line, not a broken page. Screenshots go to artifacts/."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from moderation.models import ModerationAction
from tables import services
from tables.models import Seat, Table
from tests.support.browser import BROWSER_MARKS, DESKTOP, shot, signed_in

pytestmark = BROWSER_MARKS

SENTENCE = "Tu cuenta está suspendida hasta el"


def _finished(alice, bob) -> int:
    table = services.table_create(creator=alice, seats=2, target=50, others=["friend"])
    services.seat_join(token=Seat.objects.get(table=table, index=1).invite_token, user=bob)
    services.table_abandon(table_id=table.pk, user=bob)
    return table.pk


def _suspend(user) -> None:
    until = timezone.now() + timedelta(days=3)
    ModerationAction.objects.create(user=user, kind="suspend", reason="insultos", until=until)


def test_a_suspended_bob_is_told_why_and_may_only_decline(live_server, new_page, alice, bob):
    base = live_server.url
    finished = _finished(alice, bob)
    _suspend(bob)
    page = signed_in(new_page, base, "bob")
    page.goto(f"{base}/mesas/{finished}/")
    page.wait_for_selector("#result .no-rematch")
    assert SENTENCE in page.inner_text("#result .no-rematch")
    assert page.locator(".ask-rematch").count() == 0
    shot(page, "suspended-no-rematch-phone")

    rematch = services.rematch_offer(table_id=finished, user=alice)
    page.goto(f"{base}/mesas/{rematch.pk}/")
    page.wait_for_selector("#rematch-offer")
    assert SENTENCE in page.inner_text("#rematch-offer")
    assert page.locator(".accept-rematch").count() == 0
    shot(page, "suspended-rematch-offer-desktop", DESKTOP)
    page.click("#rematch-offer .decline-rematch")
    page.wait_for_selector("#rematch-offer", state="detached")
    assert Table.objects.get(pk=rematch.pk).outcome == Table.Outcome.DECLINED


def test_alice_suspended_while_her_page_was_open_reads_the_refusal(
    live_server, new_page, alice, bob
):
    base = live_server.url
    finished = _finished(alice, bob)
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/{finished}/")
    page.wait_for_selector("#result .ask-rematch")
    _suspend(alice)
    page.click("#result .ask-rematch")
    page.wait_for_selector("#message:has-text('suspendida')")  # CSP: no eval'd predicate
    assert SENTENCE in page.inner_text("#message")
    assert page.url == f"{base}/mesas/{finished}/"
    assert not Table.objects.filter(rematch_of_id=finished).exists()
    shot(page, "suspended-rematch-refused-phone")
