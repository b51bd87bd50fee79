"""A Web Push subscription must not make the server call anywhere (SSRF). The worker POSTs
each push to the subscription's ``endpoint``: ``POST /api/v1/push/subscriptions/`` took
``http://127.0.0.1:9911/…``, the cloud's metadata address, ``localhost``, ``[::1]`` and
``ftp://`` (201), and the worker then POSTed to them when a friend joined the table.

An endpoint is taken only as ``https`` on a host of a known push service
(``WEB_PUSH_ALLOWED_HOSTS``: FCM, Mozilla's autopush, Apple's, Microsoft's WNS), on the
default port, without user-info and never an IP literal in any spelling; anything else is
``400 invalid`` with one sentence, nothing is stored and nothing is sent. The sender checks
each stored row again before it sends (a row the rule refuses is not sent to), follows no
redirect and waits a short time. ``PushService`` (tests/notices/test_push.py) stands in at
``requests``' HTTP layer and records every request the server makes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from notices.models import Notification, PushSubscription
from tests.notices.test_push import Device
from tests.support.api import create_table, join
from tests.support.clock import T0

pytestmark = pytest.mark.django_db

PATH = "/api/v1/push/subscriptions/"
AWAY = T0 + timedelta(minutes=5)  # the creator's presence from T0 has run out
REFUSED = (
    "Tiene que ser la dirección https de un servicio de avisos conocido "
    "(Google, Mozilla, Apple o Microsoft)."
)
WEB_ADDRESS = "Escribe una dirección web válida."

#: Every spelling of "somewhere that is not a push service".
FORBIDDEN = [
    "http://127.0.0.1:9911/x",
    "http://169.254.169.254/latest/meta-data/",
    "http://localhost:6390/",
    "http://[::1]:9911/",
    "ftp://127.0.0.1/",
    "http://2130706433/",  # 127.0.0.1 as one decimal number
    "https://2130706433/",
    "https://0177.0.0.1/",  # octal
    "https://0x7f000001/",  # hexadecimal
    "https://0x7f.0.0.1/",
    "https://127.1/",
    "https://[::ffff:127.0.0.1]/",  # IPv4-mapped IPv6
    "https://[::1]/",
    "https://[fe80::1%25eth0]/",
    "https://169.254.169.254/latest/meta-data/",
    "https://fcm.googleapis.com.example.org/fcm/send/x",  # a look-alike host
    "https://fcm.googleapis.com.example.org./fcm/send/x",
    "https://evilfcm.googleapis.com/fcm/send/x",  # no dot boundary: not FCM's host
    "https://notfcm.googleapis.com/fcm/send/x",
    "https://push.services.mozilla.com.evil.test/wpush/v2/x",
    "https://xnotify.windows.com/w/?token=x",
    "https://fcm.googleapis.com@127.0.0.1/",  # user-info tricks
    "https://user:pass@fcm.googleapis.com/fcm/send/x",
    "https://user@fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",  # a port of its own
    "https://fcm.googleapis.com:80/fcm/send/x",
    "http://fcm.googleapis.com/fcm/send/x",  # an allowed host without TLS
    "http://updates.push.services.mozilla.com/wpush/v2/x",
    "wss://fcm.googleapis.com/fcm/send/x",
    "https://googleapis.com/fcm/send/x",  # the parent of an exact host
    "https://example.com/push/x",
]

#: What the browsers really hand out, one per push service (Chrome, Firefox, Safari, Edge).
REAL = [
    "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx",
    "https://android.googleapis.com/gcm/send/APA91bE5kn3Wz4JbvV6A-xrQcnQmBxmr0SbpLg",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmQ3k2aZ9xTnUhbgPo0EFi",
    "https://web.push.apple.com/QGuQyavXutnMH_Ae2WSbWfGUxbfhNTMlAM7I8p0cJPo",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAABgfkbDbxMq%2bS2AVTLI",
    "https://db5p.notify.windows.com/w/?token=AwYAAAD",
]


@pytest.fixture
def world(api_client_for, alice, bob, push_service, vapid):
    """alice's two-seat table waiting for a friend, Web Push on."""
    created = create_table(api_client_for(alice), 2, ["friend"])
    return created


def _bob_joins(clock, run_tasks, api_client_for, bob, created) -> None:
    clock.move_to(AWAY)
    with run_tasks():
        join(api_client_for(bob), created["invites"][0]["token"])


@pytest.mark.parametrize("endpoint", FORBIDDEN)
def test_an_endpoint_off_the_push_services_is_refused_and_never_called(
    clock, run_tasks, api_client_for, alice, bob, push_service, world, endpoint
):
    """alice posts ``endpoint``: 400 ``invalid`` with the one sentence, no row; bob then
    takes her table's seat and nothing at all goes out on HTTP."""
    answer = api_client_for(alice).post(PATH, Device(endpoint).subscription, format="json")

    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid"
    assert body["fields"]["endpoint"] in ([REFUSED], [WEB_ADDRESS])
    assert not PushSubscription.objects.exists()
    _bob_joins(clock, run_tasks, api_client_for, bob, world)
    assert Notification.objects.filter(recipient=alice, kind="friend_joined").exists()
    assert push_service.calls == [] and push_service.received == []


def test_the_refusal_is_a_clear_sentence_in_english_too(api_client_for, alice, world):
    answer = api_client_for(alice).post(
        PATH,
        Device("http://169.254.169.254/latest/meta-data/").subscription,
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 400
    assert answer.json()["fields"]["endpoint"] == [
        "It must be the https address of a known push service (Google, Mozilla, Apple or "
        "Microsoft)."
    ]


@pytest.mark.parametrize("endpoint", REAL)
def test_the_push_services_real_endpoints_are_taken(api_client_for, alice, world, endpoint):
    answer = api_client_for(alice).post(PATH, Device(endpoint).subscription, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json() == {"endpoint": endpoint}
    assert PushSubscription.objects.get(user=alice).endpoint == endpoint


def test_a_host_is_read_in_one_spelling(api_client_for, alice, world):
    """Capitals, the root's trailing dot and the default port name FCM's host: taken,
    stored in its one spelling, and forgotten in any of them."""
    spelled = "https://FCM.GoogleAPIs.com.:443/fcm/send/alice-laptop"
    client = api_client_for(alice)
    answer = client.post(PATH, Device(spelled).subscription, format="json")
    assert answer.status_code == 201, answer.content
    stored = "https://fcm.googleapis.com/fcm/send/alice-laptop"
    assert answer.json() == {"endpoint": stored}
    assert PushSubscription.objects.get(user=alice).endpoint == stored
    assert client.delete(PATH, {"endpoint": spelled}, format="json").status_code == 204
    assert not PushSubscription.objects.exists()


def test_a_stored_row_off_the_push_services_is_not_sent_to(
    clock, run_tasks, api_client_for, alice, bob, push_service, world
):
    """Rows stored before the rule (written here straight to the table) are checked
    again by the sender: bob joins, alice's real device gets its push, and no other
    address is called."""
    device = Device(f"{push_service.url}/fcm/send/alice-phone")
    answer = api_client_for(alice).post(PATH, device.subscription, format="json")
    assert answer.status_code == 201, answer.content
    keys = device.subscription["keys"]
    for endpoint in FORBIDDEN[:6]:
        PushSubscription.objects.create(
            user=alice, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
        )

    _bob_joins(clock, run_tasks, api_client_for, bob, world)

    pushed = [device.decrypt(body)["kind"] for _headers, body in push_service.received]
    assert "friend_joined" in pushed
    assert [url for url, _options in push_service.calls] == [device.subscription["endpoint"]] * len(
        pushed
    )
    notice = Notification.objects.get(recipient=alice, kind="friend_joined")
    assert notice.push == "sent"


def test_the_sender_follows_no_redirect_and_waits_briefly(
    clock, run_tasks, api_client_for, alice, bob, push_service, world, settings
):
    """The push service answers a redirect to the metadata address: it is not followed
    (one request a push, the push counts as not taken), and the request's timeout is
    short."""
    device = Device(f"{push_service.url}/fcm/send/alice-phone")
    assert api_client_for(alice).post(PATH, device.subscription, format="json").status_code == 201
    push_service.answer = 307
    push_service.location = "http://169.254.169.254/latest/meta-data/"

    _bob_joins(clock, run_tasks, api_client_for, bob, world)

    assert push_service.calls and len(push_service.calls) == len(push_service.received)
    for url, options in push_service.calls:
        assert url == device.subscription["endpoint"]
        timeout = options["timeout"]
        assert max(timeout if isinstance(timeout, tuple) else (timeout,)) <= 5
    assert Notification.objects.get(recipient=alice, kind="friend_joined").push == "failed"
    assert PushSubscription.objects.filter(user=alice).exists()  # a redirect is not "gone"
