"""Web Push end to end without the internet (issue 15): a small push service on loopback
stands in for the browser vendor's; a device subscribes with a real P-256 key pair and
auth secret through the API; the notice task pushes; the test decrypts the received body
(``aes128gcm``, RFC 8291) with the device's private key and checks its text, that it
holds no tile, and the VAPID signature's header. The service then answers 410 and the
subscription is deleted. Nothing is pushed while the player is at the table.

The devices subscribe at an address of a real push service (``PushService.url``, FCM's
host: the server takes no other, ``WEB_PUSH_ALLOWED_HOSTS``); the test's stand-in sits at
``requests``' HTTP layer (``HTTPAdapter.send``), which records every request the server
makes (``PushService.calls``), sends those for that host to the loopback server and lets
nothing else reach the network."""

from __future__ import annotations

import base64
import json
import os
import random
import re
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command
from requests.adapters import HTTPAdapter

from notices.management.commands.vapid_keys import new_pair
from notices.models import Notification, PushSubscription
from tests.support.api import create_table, join, play_one, table
from tests.support.clock import MINUTE, T0
from tests.support.database import fresh

pytestmark = pytest.mark.django_db

TILE = re.compile(r"\b[0-6]-[0-6]\b")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """An HTTP server on 127.0.0.1 that records each push (headers, body) and answers
    ``answer`` (201, or 410 once the test says the device is gone; a redirect to
    ``location`` when set). The devices' endpoints start with ``url``, FCM's address:
    ``intercept`` routes the server's requests there to this loopback server."""

    #: The push service's public address the test's devices subscribe at.
    url = "https://fcm.googleapis.com"

    def __init__(self) -> None:
        self.received: list[tuple[dict, bytes]] = []
        self.calls: list[tuple[str, dict]] = []  # every HTTP request: (URL, send's options)
        self.answer = 201
        self.location: str | None = None
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append((headers, body))
                self.send_response(service.answer)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.loopback = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def intercept(self, monkeypatch) -> None:
        """Replace ``requests``' HTTP layer for the test: each request is recorded in
        ``calls``; one to ``url`` goes to the loopback server, any other fails as an
        unreachable host would (``requests.ConnectionError``) without leaving the machine."""
        real_send = HTTPAdapter.send
        service = self

        def send(adapter, request, **options):
            service.calls.append((request.url, options))
            if not request.url.startswith(service.url + "/"):
                raise requests.ConnectionError(f"no network in tests: {request.url}")
            request.url = service.loopback + request.url[len(service.url) :]
            return real_send(adapter, request, **options)

        monkeypatch.setattr(HTTPAdapter, "send", send)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service(monkeypatch):
    service = PushService()
    service.intercept(monkeypatch)
    yield service
    service.close()


@pytest.fixture
def vapid(settings):
    public, private = new_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:admin@example.com"
    return public


class Device:
    """A browser's push subscription: a real P-256 key pair and a 16-byte auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": endpoint,
            "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict:
        clear = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(clear)


def _bob_moves_while_alice_is_away(api_client_for, run_tasks, clock, alice, bob) -> int:
    created = create_table(api_client_for(alice), 2, ["friend"])
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])
    clients = {0: api_client_for(alice), 1: api_client_for(bob)}
    clock.move_to(T0 + 5 * MINUTE)
    rng = random.Random(9)
    for _ in range(4):  # whoever leads, bob moves and then it is alice's turn
        turn = fresh(created["id"]).turn_seat
        if turn == 1:
            break
        state = table(clients[0], created["id"])
        with run_tasks():
            assert play_one(clients[0], state, rng).status_code == 200
        clock.move_to(T0 + 10 * MINUTE)  # alice leaves the table
    clock.move_to(T0 + 20 * MINUTE)
    with run_tasks():
        state = table(clients[1], created["id"])
        assert play_one(clients[1], state, rng).status_code == 200
    assert fresh(created["id"]).turn_seat == 0
    return created["id"]


def test_a_push_is_encrypted_to_the_device_and_a_gone_subscription_is_deleted(
    clock, api_client_for, run_tasks, alice, bob, push_service, vapid
):
    device = Device(f"{push_service.url}/push/alice-phone")
    answer = api_client_for(alice).post(
        "/api/v1/push/subscriptions/", device.subscription, format="json"
    )
    assert answer.status_code == 201, answer.json()
    table_id = _bob_moves_while_alice_is_away(api_client_for, run_tasks, clock, alice, bob)

    turn_pushes = []
    for headers, body in push_service.received:
        assert headers["content-encoding"] == "aes128gcm"
        assert headers["authorization"].startswith("vapid t=")
        assert f"k={vapid}" in headers["authorization"]
        assert int(headers["ttl"]) > 0
        message = device.decrypt(body)
        assert not TILE.search(json.dumps(message)), "a push carries a tile"
        if message["kind"] == "your_turn":
            turn_pushes.append(message)
    assert turn_pushes[-1] == {
        "title": "Dominó",
        "body": f"Te toca en la mesa {table_id}: con bob",
        "url": f"/mesas/{table_id}/",
        "tag": f"table-{table_id}",
        "kind": "your_turn",
    }
    notice = Notification.objects.filter(recipient=alice, kind="your_turn").latest("pk")
    assert notice.push == "sent" and "push" in notice.channels

    # The device is gone: the push service answers 410, the subscription is deleted.
    push_service.answer = 410
    before = len(push_service.received)
    clock.move_to(T0 + 30 * MINUTE)
    with run_tasks():
        api_client_for(bob).post(f"/api/v1/tables/{table_id}/abandon/")
    assert len(push_service.received) == before + 1
    assert not PushSubscription.objects.filter(user=alice).exists()
    over = Notification.objects.get(recipient=alice, kind="match_over")
    assert over.push == "failed" and "push" not in over.channels


def test_nothing_is_pushed_while_the_player_is_at_the_table(
    clock, api_client_for, run_tasks, alice, push_service, vapid
):
    device = Device(f"{push_service.url}/push/alice-laptop")
    client = api_client_for(alice)
    assert (
        client.post("/api/v1/push/subscriptions/", device.subscription, format="json").status_code
        == 201
    )
    with run_tasks():
        created = create_table(client, 2, ["nino"], target=50)
    rng, now = random.Random(3), T0
    for _ in range(15):
        state = table(client, created["id"])
        if state["status"] != "playing":
            break
        now += timedelta(seconds=30)
        clock.move_to(now)
        with run_tasks():
            assert play_one(client, table(client, created["id"]), rng).status_code == 200
    assert push_service.received == []
    assert Notification.objects.filter(recipient=alice, kind="your_turn").exists()


def test_one_subscription_per_device_and_the_api_forgets_it(
    api_client_for, alice, bob, push_service, vapid
):
    device = Device(f"{push_service.url}/push/shared-tablet")
    for user in (alice, bob):  # the same device, signed in as bob now
        answer = api_client_for(user).post(
            "/api/v1/push/subscriptions/", device.subscription, format="json"
        )
        assert answer.status_code == 201
    (row,) = PushSubscription.objects.all()
    assert row.user == bob
    endpoint = {"endpoint": device.subscription["endpoint"]}
    assert (
        api_client_for(alice)
        .delete("/api/v1/push/subscriptions/", endpoint, format="json")
        .status_code
        == 404
    )  # not alice's any more
    assert (
        api_client_for(bob)
        .delete("/api/v1/push/subscriptions/", endpoint, format="json")
        .status_code
        == 204
    )
    assert not PushSubscription.objects.exists()
    bad = api_client_for(bob).post(
        "/api/v1/push/subscriptions/", {"endpoint": "nope", "keys": {}}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_there_is_no_push_and_no_switch(client, api_client_for, alice):
    device = Device("https://fcm.googleapis.com/fcm/send/x")
    answer = api_client_for(alice).post(
        "/api/v1/push/subscriptions/", device.subscription, format="json"
    )
    assert answer.status_code == 404 and answer.json()["code"] == "push_disabled"
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert "data-push-key" not in page and "Recibir avisos en este dispositivo" not in page


def test_with_vapid_keys_the_settings_page_has_the_switch(client, alice, vapid):
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert f'data-push-key="{vapid}"' in page
    assert "Recibir avisos en este dispositivo" in page
    assert 'name="push_your_turn"' in page


def test_the_command_prints_a_usable_key_pair(capsys):
    call_command("vapid_keys")
    out = capsys.readouterr().out
    public = re.search(r"^VAPID_PUBLIC_KEY=([A-Za-z0-9_-]+)$", out, re.M).group(1)
    private = re.search(r"^VAPID_PRIVATE_KEY=([A-Za-z0-9_-]+)$", out, re.M).group(1)
    raw = base64.urlsafe_b64decode(public + "=" * (-len(public) % 4))
    assert len(raw) == 65 and raw[0] == 4  # an uncompressed P-256 point
    number = int.from_bytes(base64.urlsafe_b64decode(private + "=" * (-len(private) % 4)), "big")
    key = ec.derive_private_key(number, ec.SECP256R1())
    assert (
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        == raw
    )


def test_the_manifest_and_the_service_worker_are_served(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert body["start_url"] == "/" and body["display"] == "standalone"
    assert {icon["sizes"] for icon in body["icons"]} == {"192x192", "512x512"}
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert "showNotification" in worker.content.decode()
    page = client.get("/reglas/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page and "js/pwa.js" in page
