"""Native mobile push (issue 15, the last item): alice's phones (an Android one on FCM,
an iPhone on APNs) register their tokens through the API and get bob's move as the same
sentence as the Web Push, with the table in the data and no tile; a token the provider
says is unregistered is deleted; a retried task sends nothing twice; presence, quiet hours
and the per-kind switch hold as for Web Push. The providers cannot be reached from here:
``tests/notices/phones.py`` stands in for them at their HTTP call."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import firebase_admin
import pytest
from push_notifications.models import APNSDevice, GCMDevice

from notices import push
from notices import tasks as notice_tasks
from notices.models import Notification
from tests.notices.phones import FakeApns, FakeFcm, apns_key, service_account
from tests.notices.test_push import _bob_moves_while_alice_is_away
from tests.support.api import create_table, play_one, table
from tests.support.clock import MINUTE, T0

pytestmark = pytest.mark.django_db

TILE = re.compile(r"\b[0-6]-[0-6]\b")
FCM_TOKEN = "dXk3-alice_pixel:APA91bH" + "x" * 140
APNS_TOKEN = "ab" * 32
PROJECT = "domino-test"


@pytest.fixture
def fcm(settings, tmp_path, monkeypatch):
    """FCM on (a service account of project ``domino-test``), its HTTP call faked."""
    settings.FCM_CREDENTIALS_FILE = service_account(tmp_path / "service-account.json", PROJECT)
    settings.FCM_PROJECT_ID = PROJECT
    fake = FakeFcm()
    fake.install(monkeypatch)
    yield fake
    for app in list(firebase_admin._apps.values()):
        firebase_admin.delete_app(app)


@pytest.fixture
def apns(settings, tmp_path, monkeypatch):
    """APNs on (a token key, key id, team id and bundle id), its HTTP/2 call faked."""
    key = apns_key(tmp_path / "AuthKey_KEY1234567.p8")
    for name, value in {
        "APNS_AUTH_KEY_PATH": str(tmp_path / "AuthKey_KEY1234567.p8"),
        "APNS_AUTH_KEY_ID": "KEY1234567",
        "APNS_TEAM_ID": "TEAM123456",
        "APNS_TOPIC": "com.example.domino",
        "APNS_USE_SANDBOX": False,
    }.items():
        monkeypatch.setitem(settings.PUSH_NOTIFICATIONS_SETTINGS, name, value)
    fake = FakeApns(key.public_key())
    fake.install(monkeypatch)
    return fake


def _register(client, platform: str, token: str, name: str = ""):
    body = {"platform": platform, "token": token, **({"name": name} if name else {})}
    return client.post("/api/v1/push/devices/", body, format="json")


def _alice_has_two_phones(api_client_for, alice) -> None:
    client = api_client_for(alice)
    assert _register(client, "fcm", FCM_TOKEN, "Pixel de alice").status_code == 201
    assert _register(client, "apns", APNS_TOKEN.upper(), "iPhone").status_code == 201


def test_alices_phones_get_bobs_move_with_the_table_and_no_tile(
    clock, api_client_for, run_tasks, alice, bob, fcm, apns
):
    _alice_has_two_phones(api_client_for, alice)
    table_id = _bob_moves_while_alice_is_away(api_client_for, run_tasks, clock, alice, bob)
    text = f"Te toca en la mesa {table_id}: con bob"
    data = {"url": f"/mesas/{table_id}/", "table": str(table_id), "kind": "your_turn"}

    url, body = fcm.sent[-1]
    assert url == f"https://fcm.googleapis.com/v1/projects/{PROJECT}/messages:send"
    message = body["message"]
    assert message["token"] == FCM_TOKEN
    assert message["notification"] == {"title": "Dominó", "body": text}
    assert message["data"] == {**data, "tag": f"table-{table_id}"}
    assert message["android"]["collapse_key"] == f"table-{table_id}"
    assert message["android"]["ttl"] == "86400s"
    assert message["android"]["notification"]["tag"] == f"table-{table_id}"
    assert message["apns"]["headers"] == {"apns-collapse-id": f"table-{table_id}"}

    request = apns.sent[-1]
    assert request["server"] == "api.push.apple.com"  # production, not the sandbox
    assert request["topic"] == "com.example.domino"
    assert request["token"] == APNS_TOKEN  # registered in capitals, kept in lower case
    assert request["payload"]["aps"]["alert"] == {"title": "Dominó", "body": text}
    assert request["payload"]["aps"]["thread-id"] == f"table-{table_id}"
    assert {k: request["payload"][k] for k in data} == {**data, "table": table_id}
    assert request["collapse_id"] == f"table-{table_id}"
    assert 0 < request["ttl"] <= 86400
    assert request["jwt"]["kid"] == "KEY1234567" and request["jwt"]["iss"] == "TEAM123456"

    everything = json.dumps([fcm.sent, apns.sent], ensure_ascii=False)
    assert not TILE.search(everything), "a push to a phone carries a tile"
    notice = Notification.objects.filter(recipient=alice, kind="your_turn").latest("pk")
    assert notice.push == "sent" and "native" in notice.channels
    assert "push" not in notice.channels  # no browser of alice's got it


def test_an_unregistered_token_is_deleted_and_a_retry_sends_nothing_twice(
    clock, api_client_for, run_tasks, alice, bob, fcm, apns
):
    _alice_has_two_phones(api_client_for, alice)
    table_id = _bob_moves_while_alice_is_away(api_client_for, run_tasks, clock, alice, bob)
    turn = Notification.objects.filter(recipient=alice, kind="your_turn").latest("pk")
    before = (len(fcm.sent), len(apns.sent))
    # The task runs again (a retry, a duplicate), and so does the beat's sweep.
    notice_tasks.record_turn(table_id, int(turn.key))
    assert push.deliver(turn.pk) == 0
    notice_tasks.deliver_pushes()
    assert (len(fcm.sent), len(apns.sent)) == before

    # Both apps were uninstalled: FCM answers UNREGISTERED, APNs 410 Unregistered.
    fcm.gone.add(FCM_TOKEN)
    apns.gone.add(APNS_TOKEN)
    clock.move_to(T0 + 30 * MINUTE)
    with run_tasks():
        assert api_client_for(bob).post(f"/api/v1/tables/{table_id}/abandon/").status_code == 200
    assert (len(fcm.sent), len(apns.sent)) == (before[0] + 1, before[1] + 1)
    assert not GCMDevice.objects.exists() and not APNSDevice.objects.exists()
    over = Notification.objects.get(recipient=alice, kind="match_over")
    assert over.push == "failed" and "native" not in over.channels


def test_a_phone_gets_nothing_while_alice_plays_nor_in_quiet_hours_nor_switched_off(
    clock, api_client_for, run_tasks, alice, bob, fcm
):
    client = api_client_for(alice)
    assert _register(client, "fcm", FCM_TOKEN).status_code == 201
    with run_tasks():
        created = create_table(client, 2, ["nino"], target=50)
    rng, now = random.Random(3), T0
    for _ in range(12):  # alice at the table, reading it before each move
        state = table(client, created["id"])
        if state["status"] != "playing":
            break
        now += timedelta(seconds=30)
        clock.move_to(now)
        with run_tasks():
            assert play_one(client, table(client, created["id"]), rng).status_code == 200
    assert fcm.sent == []
    assert Notification.objects.filter(recipient=alice, kind="your_turn").exists()

    # Quiet hours 09:00-11:00 UTC: bob's move (at 09:50) waits, and goes when they end.
    patch = {"quiet_start": "09:00", "quiet_end": "11:00", "time_zone": "UTC"}
    assert (
        client.patch("/api/v1/notifications/preferences/", patch, format="json").status_code == 200
    )
    table_id = _bob_moves_while_alice_is_away(api_client_for, run_tasks, clock, alice, bob)
    waiting = Notification.objects.filter(recipient=alice, kind="your_turn", table=table_id)
    assert fcm.sent == [] and waiting.latest("pk").push == "pending"
    clock.move_to(T0.replace(hour=11, minute=1))
    notice_tasks.deliver_pushes()
    assert [(m["data"]["kind"], m["data"]["table"]) for m in fcm.messages()] == [
        ("your_turn", str(table_id))
    ]

    # The "match over" switch off: bob abandons, and nothing goes to the phone.
    off = {"push_match_over": False}
    assert client.patch("/api/v1/notifications/preferences/", off, format="json").status_code == 200
    with run_tasks():
        api_client_for(bob).post(f"/api/v1/tables/{table_id}/abandon/")
    assert len(fcm.sent) == 1
    over = Notification.objects.get(recipient=alice, kind="match_over", table=table_id)
    assert over.push == "skipped"


def test_without_credentials_nothing_is_sent_and_nothing_breaks(
    clock, api_client_for, run_tasks, alice, bob, settings
):
    assert settings.FCM_CREDENTIALS_FILE == ""
    answer = _register(api_client_for(alice), "fcm", FCM_TOKEN)
    assert (answer.status_code, answer.json()["code"]) == (404, "push_disabled")
    GCMDevice.objects.create(user=alice, registration_id=FCM_TOKEN)  # from an earlier setup
    _bob_moves_while_alice_is_away(api_client_for, run_tasks, clock, alice, bob)
    notice = Notification.objects.filter(recipient=alice, kind="your_turn").latest("pk")
    assert notice.push == "" and notice.channels == []
    assert GCMDevice.objects.filter(user=alice).exists()


def test_one_row_per_token_it_moves_to_whoever_registers_it_and_mallory_cannot_delete_it(
    api_client_for, alice, bob, mallory, fcm, apns
):
    alice_api, bob_api, mallory_api = (api_client_for(u) for u in (alice, bob, mallory))
    mine = _register(alice_api, "fcm", FCM_TOKEN, "Pixel de alice")
    assert mine.status_code == 201
    assert mine.json()["platform"] == "fcm" and mine.json()["token_end"] == FCM_TOKEN[-8:]
    assert FCM_TOKEN not in mine.content.decode()  # the token is never answered whole
    assert _register(alice_api, "fcm", FCM_TOKEN).status_code == 201  # again: same row
    assert GCMDevice.objects.get().user == alice

    # mallory cannot delete it: 404, and it stays alice's.
    body = {"platform": "fcm", "token": FCM_TOKEN}
    refused = mallory_api.delete("/api/v1/push/devices/", body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    assert GCMDevice.objects.get().user == alice
    assert mallory_api.get("/api/v1/push/devices/").json() == []
    (listed,) = alice_api.get("/api/v1/push/devices/").json()
    assert listed["name"] == "Pixel de alice" and listed["token_end"] == FCM_TOKEN[-8:]

    # The phone now belongs to bob (alice signed out, bob signed in): the row moves.
    assert _register(bob_api, "fcm", FCM_TOKEN, "Pixel").status_code == 201
    (row,) = GCMDevice.objects.all()
    assert (row.user, row.name, row.active) == (bob, "Pixel", True)
    assert alice_api.delete("/api/v1/push/devices/", body, format="json").status_code == 404
    assert bob_api.delete("/api/v1/push/devices/", body, format="json").status_code == 204
    assert not GCMDevice.objects.exists()


def test_each_phone_has_its_own_id_whatever_its_platform(api_client_for, alice, fcm, apns):
    """An FCM and an APNs row may share a row number; the ids a client keys them by don't."""
    _alice_has_two_phones(api_client_for, alice)
    listed = api_client_for(alice).get("/api/v1/push/devices/").json()
    ids = {phone["platform"]: phone["id"] for phone in listed}
    assert ids == {
        "fcm": f"fcm:{GCMDevice.objects.get().pk}",
        "apns": f"apns:{APNSDevice.objects.get().pk}",
    }


@pytest.mark.parametrize(
    "body",
    [
        {"platform": "wns", "token": FCM_TOKEN},
        {"platform": "fcm"},
        {"platform": "fcm", "token": "short"},
        {"platform": "fcm", "token": "spaces are not in a token " * 3},
        {"platform": "apns", "token": "zz" * 32},
        {"platform": "apns", "token": "ab" * 16},
        {"platform": "apns", "token": APNS_TOKEN, "name": "x" * 256},
        {"token": APNS_TOKEN},
    ],
)
def test_a_bad_device_is_a_400_and_changes_nothing(api_client_for, alice, fcm, apns, body):
    answer = api_client_for(alice).post("/api/v1/push/devices/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert answer.json()["fields"]
    assert not GCMDevice.objects.exists() and not APNSDevice.objects.exists()


def test_signed_out_no_device_api(anonymous_client):
    answer = anonymous_client.post(
        "/api/v1/push/devices/", {"platform": "fcm", "token": FCM_TOKEN}, format="json"
    )
    assert answer.status_code in (401, 403) and not GCMDevice.objects.exists()


def test_the_device_endpoint_is_in_the_schema(anonymous_client):
    schema = anonymous_client.get(
        "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    assert {"get", "post", "delete"} <= set(schema["paths"]["/api/v1/push/devices/"])
