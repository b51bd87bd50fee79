"""When the settings page cannot turn Web Push on, it says why in words, not "No se pudo
cambiar. Inténtalo de nuevo.": the browser refused the permission (``NotAllowedError``),
its push service is out of reach (a private window, a browser without one: an
``AbortError``, with the browser's own message), or the server refused the subscription
(its sentence: an endpoint off the push services). The Push API is stubbed in the page
(``PushManager.prototype.subscribe``), as headless Chromium has no push service. A
screenshot at 390x844 goes to artifacts/."""

from __future__ import annotations

import pytest

from notices.management.commands.vapid_keys import new_pair
from notices.models import PushSubscription
from tests.support.browser import BROWSER_MARKS, PHONE, shot, signed_in

pytestmark = BROWSER_MARKS

GRANTED = "Notification.requestPermission = async () => 'granted';"
REJECT = """PushManager.prototype.subscribe = function () {
  return Promise.reject(new DOMException(%r, %r));
};"""
BAD_ENDPOINT = """PushManager.prototype.subscribe = async function () {
  return { endpoint: "http://127.0.0.1:9911/x", toJSON: () => ({
    endpoint: "http://127.0.0.1:9911/x", expirationTime: null,
    keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) } }) };
};"""


@pytest.mark.parametrize(
    ("stub", "sentence"),
    [
        (
            REJECT % ("Registration failed - permission denied", "NotAllowedError"),
            "El navegador no permite avisos para este sitio: cámbialo en sus ajustes (en una "
            "ventana privada no se pueden activar).",
        ),
        (
            REJECT % ("Registration failed - push service error", "AbortError"),
            "El servicio de avisos del navegador no está disponible: pasa en las ventanas "
            "privadas y en los navegadores sin ese servicio. Prueba en una ventana normal. "
            "El navegador dice: «Registration failed - push service error»",
        ),
        (
            BAD_ENDPOINT,
            "El servidor no aceptó este dispositivo: Tiene que ser la dirección https de un "
            "servicio de avisos conocido (Google, Mozilla, Apple o Microsoft).",
        ),
    ],
    ids=["permission", "push-service", "server"],
)
def test_a_failed_subscription_says_why(live_server, new_page, alice, settings, stub, sentence):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_pair()
    page = signed_in(new_page, live_server.url, "alice")
    page.add_init_script(GRANTED + "\n" + stub)
    page.goto(f"{live_server.url}/accounts/settings/")
    page.wait_for_function("() => !document.querySelector('[data-push-switch]').disabled")
    page.get_by_label("Recibir avisos en este dispositivo").click()
    status = page.locator("[data-push-status]")
    page.wait_for_function(
        "(off) => { const s = document.querySelector('[data-push-status]').textContent;"
        " return s && s !== off; }",
        arg="Este dispositivo no recibe avisos.",
    )
    assert status.inner_text() == sentence
    assert not page.get_by_label("Recibir avisos en este dispositivo").is_checked()
    assert not PushSubscription.objects.exists()
    if "AbortError" in stub:
        status.scroll_into_view_if_needed()
        page.set_viewport_size(PHONE)
        page.screenshot(path="/tmp/push_error_phone.png")
        shot(page, "push-error-settings-phone", PHONE)
