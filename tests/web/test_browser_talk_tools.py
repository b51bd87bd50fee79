"""The talk panel's tools in a real browser: bob mutes alice only after a confirmation
that says it holds at every table, reads "Has silenciado a alice en todas las mesas ·
Volver a oír" under the talk and hears her again from there, then from his settings
page; a list whose every message his mutes hide says they are hidden, whose ("Los
mensajes de alice están ocultos.") or the table's, never "Aún no hay mensajes.";
"Enviar" with only spaces or blank letters says what the API would; the report form
labels its player picker ("Jugador") and its reason ("Motivo") each on its own.
Screenshots at 390x844 and 1280x800 go to artifacts/."""

from __future__ import annotations

from moderation.models import TalkMute
from moderation.services import talk_post
from tests.support.browser import BROWSER_MARKS, DESKTOP, PHONE, log_in, refresh, shot, signed_in
from tests.support.pages import seat_friends

pytestmark = BROWSER_MARKS

REFUSED_BLANK = "No se pudo enviar: Escribe un mensaje o elige una frase."
CLEAR_STATUS = "node => { node.textContent = ''; node.className = 'talk-status'; }"
MUTE_ALICE = "#talk-list .talk-message:not(.mine) button:has-text('Silenciar a alice')"


def _bobs_page(browser, base: str, dialogs: list, answers: list):
    """bob's page, whose ``confirm`` dialogs are recorded in ``dialogs`` and answered
    with the next of ``answers`` (True: accept)."""
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    context.set_default_timeout(15_000)
    page = context.new_page()

    def answer(dialog):
        dialogs.append(dialog.message)
        (dialog.accept if answers.pop(0) else dialog.dismiss)()

    page.on("dialog", answer)
    log_in(page, base, "bob")
    return page


def test_bob_mutes_alice_after_confirming_and_hears_her_again(live_server, browser, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    talk_post(table_id=table.pk, user=alice, text="¿otra partida?")
    dialogs: list[str] = []
    page = _bobs_page(browser, base, dialogs, [False, True, True])
    page.goto(f"{base}/mesas/{table.pk}/")

    page.click(MUTE_ALICE)  # dismissed: nothing happens
    assert "todas las mesas" in dialogs[0] and "alice" in dialogs[0]
    page.wait_for_timeout(300)
    assert not TalkMute.objects.exists()
    assert page.locator("#talk-muted").is_hidden()

    page.click(MUTE_ALICE)
    page.wait_for_selector("#talk-muted li")
    assert (
        page.inner_text("#talk-muted") == "Has silenciado a alice en todas las mesas · Volver a oír"
    )
    # her message is hidden, not missing: the list says so, not "Aún no hay mensajes."
    assert page.inner_text("#talk-list") == "Los mensajes de alice están ocultos."
    shot(page, "talk-muted-alice-phone", PHONE)
    shot(page, "talk-muted-alice-desktop", DESKTOP)

    page.click("#talk-muted button[aria-label='Volver a oír a alice']")
    page.wait_for_selector("#talk-list .talk-text:has-text('¿otra partida?')")
    assert page.locator("#talk-muted").is_hidden()
    assert "Vuelves a oír a alice." in page.inner_text("#talk-status")
    assert not TalkMute.objects.exists()

    page.click(MUTE_ALICE)
    page.wait_for_selector("#talk-muted li")
    page.goto(f"{base}/accounts/settings/")
    assert "alice" in page.inner_text("#silenciados .muted-list")
    shot(page, "settings-muted-players-phone", PHONE)
    shot(page, "settings-muted-players-desktop", DESKTOP)
    page.click("#silenciados button:has-text('Volver a oír')")
    page.wait_for_selector(".messages li:has-text('Vuelves a oír a alice.')")
    assert "No has silenciado a nadie." in page.inner_text("#silenciados")
    assert not TalkMute.objects.exists()
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-text:has-text('¿otra partida?')")
    page.context.close()


def test_what_bobs_mutes_hide_is_said_and_the_rest_shown(live_server, new_page, alice, bob, carol):
    base = live_server.url
    table = seat_friends(alice, [bob, carol])
    TalkMute.objects.create(user=bob, muted_user=alice)
    talk_post(table_id=table.pk, user=alice, text="de alice")
    talk_post(table_id=table.pk, user=carol, text="de carol")
    page = signed_in(new_page, base, "bob")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .talk-text")
    assert page.locator("#talk-list .talk-text").all_inner_texts() == ["de carol"]
    assert page.locator("#talk-list .empty").count() == 0  # some shown: nothing to explain
    assert page.inner_text("#talk-muted").startswith("Has silenciado a alice")

    page.click("#talk-mute")  # the table's talk too: now nothing of theirs is shown
    page.wait_for_selector("#talk-list .empty")
    hidden = "Los mensajes de esta mesa están ocultos: has silenciado su charla."
    assert page.inner_text("#talk-list") == hidden
    assert page.inner_text("#talk-mute") == "Volver a oír la charla de esta mesa"
    shot(page, "talk-all-hidden-phone", PHONE)
    shot(page, "talk-all-hidden-desktop", DESKTOP)
    page.click("#talk-mute")
    page.wait_for_selector("#talk-list .talk-text")
    assert page.locator("#talk-list .talk-text").all_inner_texts() == ["de carol"]

    TalkMute.objects.create(user=bob, muted_user=carol)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-list .empty")
    assert page.inner_text("#talk-list") == "Messages from alice and carol are hidden."


def test_sending_only_spaces_says_why(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    page = signed_in(new_page, base, "alice")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-phrases .phrase")
    page.fill("#talk-text", "    ")
    page.click("#talk-send")
    page.wait_for_selector("#talk-status.error")
    assert page.inner_text("#talk-status") == REFUSED_BLANK
    # zero-width spaces, Hangul fillers, a blank Braille cell, an object replacement
    # character, accents on no letter: the server refuses them alike
    for blank in ("\u200b\u200b", "\u3164\u3164", "\u2800 \u115f\u034f", "\ufffc", "\u0301\u0301"):
        page.eval_on_selector("#talk-status", CLEAR_STATUS)
        page.fill("#talk-text", blank)
        with page.expect_response(
            lambda r: r.url.endswith("/talk/") and r.request.method == "POST"
        ) as sent:
            page.click("#talk-send")
        assert sent.value.status == 400, blank
        page.wait_for_selector("#talk-status.error")
        assert page.inner_text("#talk-status") == REFUSED_BLANK
    refresh(page)
    page.wait_for_selector("#talk-list .empty")


def test_the_report_form_labels_the_player_and_the_reason(live_server, new_page, alice, bob):
    base = live_server.url
    table = seat_friends(alice, [bob])
    page = signed_in(new_page, base, "bob")
    page.goto(f"{base}/mesas/{table.pk}/")
    page.wait_for_selector("#talk-phrases .phrase")
    page.click("#talk-report-player")
    labels = "id => [...document.getElementById(id).labels].map((label) => label.textContent)"
    assert page.evaluate(labels, "talk-report-seat") == ["Jugador"]
    assert page.evaluate(labels, "talk-report-reason") == ["Motivo"]
    box = {
        name: page.locator(selector).bounding_box()
        for name, selector in {
            "who": "label[for=talk-report-seat]",
            "seat": "#talk-report-seat",
            "why": "label[for=talk-report-reason]",
            "reason": "#talk-report-reason",
        }.items()
    }
    # top to bottom: "Jugador", the picker, "Motivo", the reasons
    assert box["who"]["y"] < box["seat"]["y"] < box["why"]["y"] < box["reason"]["y"]
    assert box["seat"]["y"] + box["seat"]["height"] <= box["why"]["y"]
    assert page.locator("#talk-report-seat option").all_inner_texts() == ["alice"]
    shot(page, "talk-report-player-phone", PHONE)
    page.select_option("#talk-report-reason", "spam")
    page.click("#talk-report button[type=submit]")
    page.wait_for_selector("#talk-status.ok:has-text('un moderador lo revisará')")
    assert table.reports.get().reported == alice

    talk_post(table_id=table.pk, user=alice, text="spam spam")
    refresh(page)
    page.click("#talk-list .talk-message:not(.mine) button:has-text('Reportar')")
    assert page.locator("#talk-report-who").is_hidden()  # a message's report: no picker
    shot(page, "talk-report-message-phone", PHONE)
