"""The moderator's flow in a real browser: carla reports dani's message from the table
page; mod (the "Moderadores" group, not a superuser) opens the report queue in the admin,
reads the report with the talk around it, removes the message and suspends dani for 3 days
with a reason; the table's admin page draws the game; dani's page shows it all.
Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

import pytest

from moderation.models import ModerationAction, Report, TalkMessage
from moderation.services import talk_post
from tests.conftest import PASSWORD
from tests.moderation.conftest import moderators_group
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, shot, signed_in
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS


@pytest.fixture
def people(django_user_model):
    made = {
        name: django_user_model.objects.create_user(username=name, password=PASSWORD)
        for name in ("carla", "dani", "mod")
    }
    made["mod"].is_staff = True
    made["mod"].save()
    made["mod"].groups.add(moderators_group())
    return made


def _report_from_the_table_page(new_page, base: str, table):
    """carla reports the other player's message from the table page; returns her page."""
    carla = signed_in(new_page, base, "carla")
    carla.goto(f"{base}/mesas/{table.pk}/")
    carla.wait_for_selector("#talk-list .talk-message:not(.mine)")
    carla.click("#talk-list .talk-message:not(.mine) button:has-text('Reportar')")
    carla.select_option("#talk-report-reason", "insults")
    carla.fill("#talk-report-text", "nos insulta")
    carla.click("#talk-report button[type=submit]")
    carla.wait_for_selector("#talk-status.ok:has-text('un moderador lo revisará')")
    return carla


def test_a_report_from_the_table_page_and_the_moderators_flow(live_server, new_page, people):
    base = live_server.url
    table = seat_friends(people["carla"], [people["dani"]])
    talk_post(table_id=table.pk, user=people["carla"], text="¡Suerte!")
    talk_post(table_id=table.pk, user=people["dani"], text="jugáis fatal, paquetes")

    carla = _report_from_the_table_page(new_page, base, table)
    report = Report.objects.get()

    mod = signed_in(new_page, base, "mod")
    mod.set_viewport_size(DESKTOP)
    mod.goto(f"{base}/admin/moderation/report/?status__exact=open")
    assert "dani" in mod.inner_text("#result_list")
    shot(mod, "admin-reports-desktop", DESKTOP)
    shot(mod, "admin-reports-phone", PHONE)
    mod.set_viewport_size(DESKTOP)
    mod.click(f"#result_list a[href*='/moderation/report/{report.pk}/change/']")
    mod.wait_for_selector(".mod-talk li.reported")
    assert "jugáis fatal, paquetes" in mod.inner_text(".mod-talk li.reported")
    shot(mod, "admin-report-desktop", DESKTOP)
    shot(mod, "admin-report-phone", PHONE)

    mod.select_option("#id_action", "remove_message")
    mod.fill("#id_reason", "lenguaje ofensivo")
    mod.click(".mod-act input[type=submit]")
    mod.wait_for_selector(".messagelist .success")
    mod.select_option("#id_action", "suspend")
    mod.fill("#id_days", "3")
    mod.fill("#id_reason", "insultos a la otra pareja")
    mod.click(".mod-act input[type=submit]")
    mod.wait_for_selector(".status-bad:has-text('Suspendido hasta')")
    assert TalkMessage.objects.get(text="jugáis fatal, paquetes").removed_at is not None
    assert ModerationAction.objects.get(kind="suspend").user == people["dani"]
    shot(mod, "admin-report-acted-desktop", DESKTOP)

    mod.goto(f"{base}/admin/tables/table/{table.pk}/change/")
    mod.wait_for_selector(".mod-game .mod-line")
    assert mod.locator("input[name=_save]").count() == 0
    shot(mod, "admin-table-desktop", DESKTOP)
    shot(mod, "admin-table-phone", PHONE)
    mod.set_viewport_size(DESKTOP)
    mod.goto(f"{base}/admin/accounts/user/{people['dani'].pk}/change/")
    mod.wait_for_selector(".mod-user")
    assert "insultos a la otra pareja" in mod.inner_text(".mod-user")
    shot(mod, "admin-user-desktop", DESKTOP)
    mod.goto(f"{base}/admin/moderation/moderationaction/")
    shot(mod, "admin-log-desktop", DESKTOP)

    carla.reload()
    carla.wait_for_selector("#talk-list .talk-removed")
    assert "lenguaje ofensivo" in carla.inner_text("#talk-list .talk-removed")

    dani = signed_in(new_page, base, "dani")
    assert "insultos a la otra pareja" in dani.inner_text(".moderation-notices")
    shot(dani, "home-moderation-notices-phone", PHONE)
    shot(dani, "home-moderation-notices-desktop", DESKTOP)
