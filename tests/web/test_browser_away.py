"""Issue 16 in a real browser (Chromium via Playwright), with named players: the way back
to a table through one's own invite link, a waiting table cancelled, a hand and a match
ending on screen. Screenshots at 1280x800 and 390x844 go to artifacts/ for a person to
look at."""

from __future__ import annotations

import re

import pytest

from tables.models import Seat, Table
from tests.conftest import PASSWORD
from tests.web.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, shot, signed_in

pytestmark = BROWSER_MARKS


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def bruno(django_user_model):
    return django_user_model.objects.create_user("bruno", password=PASSWORD)


def test_bruno_reopens_his_invite_link_and_lands_on_his_table(live_server, new_page, ana, bruno):
    base = live_server.url
    page_ana = signed_in(new_page, base, "ana")
    page_ana.goto(f"{base}/mesas/nueva/")
    page_ana.check("input[name=seats][value='3']")
    # Every free seat starts as a friend, the target at 50.
    assert page_ana.input_value("#id_seat_1") == page_ana.input_value("#id_seat_2") == "friend"
    assert page_ana.is_checked("input[name=target][value='50']")
    page_ana.click("#create-form button[type=submit]")
    page_ana.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    table_id = int(re.search(r"/mesas/(\d+)/$", page_ana.url).group(1))
    assert "Envía estos enlaces a tus amigos" in page_ana.inner_text("#invites")
    assert page_ana.inner_text("#abandon") == "Cancelar la mesa"
    shot(page_ana, "away-invites-phone")
    link = page_ana.locator("#invite-list .invite-url").first.input_value()

    page_bruno = new_page()
    page_bruno.goto(link)
    page_bruno.click("text=Ya tengo cuenta")
    page_bruno.fill("#id_username", "bruno")
    page_bruno.fill("#id_password", PASSWORD)
    page_bruno.click("button[type=submit].primary")
    page_bruno.wait_for_url(link)
    page_bruno.click("text=Sentarme y jugar")
    page_bruno.wait_for_url(f"{base}/mesas/{table_id}/")

    # Later, from the chat app: the same link, now his.
    page_bruno.goto(f"{base}/")
    page_bruno.goto(link)
    page_bruno.wait_for_url(f"{base}/mesas/{table_id}/")
    assert Seat.objects.get(table_id=table_id, index=1).user == bruno
    shot(page_bruno, "away-invite-reopened-phone")
    shot(page_bruno, "away-invite-reopened-desktop", DESKTOP)


def test_ana_cancels_her_waiting_table_and_it_says_cancelled(live_server, new_page, ana):
    base = live_server.url
    page = signed_in(new_page, base, "ana")
    page.goto(f"{base}/mesas/nueva/")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/mesas/\d+/$"))
    assert "Envía este enlace a tu amigo" in page.inner_text("#invites")
    page.click("#abandon")  # the dialog is accepted
    page.wait_for_selector("#result:not([hidden])")
    assert "Mesa cancelada" in page.inner_text("#result-title")
    assert "nadie gana ni pierde" in page.inner_text("#result")
    assert "abandon" not in page.inner_text("#result").lower()
    assert Table.objects.get(creator=ana).status == Table.Status.CLOSED
    shot(page, "away-cancelled-phone")


def test_the_signed_out_home_page_says_what_the_site_is(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/")
    assert "Dominó por correspondencia" in page.inner_text("main")
    assert page.locator("main a[href='/reglas/']").count() == 1
    href = page.get_attribute("header a[href^='/accounts/login/']", "href")
    assert href == "/accounts/login/?next=/"
    shot(page, "away-signed-out-phone", PHONE)
    shot(page, "away-signed-out-desktop", DESKTOP)
