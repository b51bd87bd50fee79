"""Native mobile push: the same notice as the Web Push (``notices.push.message_for``) to
each registered phone of the player, through django-push-notifications: FCM (Firebase
Cloud Messaging, HTTP v1, ``firebase-admin``) for ``GCMDevice`` rows, APNs (Apple's
HTTP/2 API with a token key, ``aioapns``) for ``APNSDevice`` rows.

``notices.push.deliver`` calls ``send`` once it has claimed the notice, so the rules are
the Web Push's: preferences per kind (``push_*``), quiet hours, presence, once only. A
token the provider answers is unregistered or invalid (FCM ``UNREGISTERED``,
``SENDER_ID_MISMATCH``, ``INVALID_ARGUMENT``; APNs ``Unregistered``, ``BadDeviceToken``,
``DeviceTokenNotForTopic``) is marked inactive by the library and then deleted here.

A platform is on only with its credentials (``FCM_CREDENTIALS_FILE``; ``APNS_KEY_FILE``,
``APNS_KEY_ID``, ``APNS_TEAM_ID``, ``APNS_BUNDLE_ID``): without them nothing is sent to
it and its tokens are not accepted (the API answers 404 ``push_disabled``).
"""

from __future__ import annotations

import logging
import time

import firebase_admin
from django.conf import settings
from firebase_admin import credentials, messaging
from firebase_admin.exceptions import FirebaseError
from push_notifications.apns_async import Alert, TokenCredentials
from push_notifications.exceptions import APNSError

from notices import devices

logger = logging.getLogger(__name__)

#: What each platform's settings must all hold for it to be on.
APNS_SETTINGS = ("APNS_AUTH_KEY_PATH", "APNS_AUTH_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC")


def platforms() -> tuple[str, ...]:
    """The platforms this server can push to: ``"fcm"`` with a service account,
    ``"apns"`` with the whole token key (file, key id, team id, bundle id)."""
    apns = settings.PUSH_NOTIFICATIONS_SETTINGS
    on = []
    if settings.FCM_CREDENTIALS_FILE:
        on.append("fcm")
    if all(apns.get(name) for name in APNS_SETTINGS):
        on.append("apns")
    return tuple(on)


def has_device(user_id: int) -> bool:
    """Whether user ``user_id`` has a phone this server can push to now."""
    on = platforms()
    return bool(on) and devices.has_any(user_id, on)


def send(user_id: int, message: dict, table_id: int | None) -> int:
    """Send ``message`` (``notices.push.message_for``: ``title``, ``body``, ``url``,
    ``tag``, ``kind``) to every active phone of user ``user_id`` on a platform that is on;
    ``table_id`` goes in the data payload too. Returns to how many phones it went. A phone
    whose token the provider refused is deleted; any other failure (the provider cannot be
    reached, a timeout) is logged and that phone misses this notice. Raises nothing."""
    on = platforms()
    data = {
        "url": message["url"],
        "table": "" if table_id is None else str(table_id),
        "kind": message["kind"],
        "tag": message["tag"],
    }
    sent, refused = 0, {"fcm": [], "apns": []}
    for platform, device in devices.of(user_id):
        if platform not in on:
            continue
        sender = _send_fcm if platform == "fcm" else _send_apns
        if sender(device, message, data):
            sent += 1
        else:
            refused[platform].append(device.pk)
    for platform, device_ids in refused.items():
        if device_ids and devices.forget_refused(platform=platform, device_ids=device_ids):
            logger.info("%s tokens refused by the provider: deleted", platform)
    return sent


def fcm_message(message: dict, data: dict) -> messaging.Message:
    """The FCM v1 message for ``message``: a notification (title, body) for the system
    tray, the table's ``url``, ``table`` id, ``kind`` and ``tag`` as data (strings, as
    FCM wants them), one notification per table on screen (Android ``tag``, APNs
    ``apns-collapse-id``) kept ``PUSH_TTL_SECONDS`` for a phone that is off. The token is
    set by the library."""
    return messaging.Message(
        notification=messaging.Notification(title=message["title"], body=message["body"]),
        data=data,
        android=messaging.AndroidConfig(
            collapse_key=message["tag"],
            ttl=settings.PUSH_TTL_SECONDS,
            notification=messaging.AndroidNotification(tag=message["tag"]),
        ),
        apns=messaging.APNSConfig(headers={"apns-collapse-id": message["tag"]}),
    )


def _send_fcm(device, message: dict, data: dict) -> bool:
    """One Android (or Firebase iOS) phone: True when FCM took it."""
    try:
        _firebase_app()
        response = device.send_message(fcm_message(message, data))
    except (FirebaseError, ValueError, OSError) as failure:  # unreachable, misconfigured
        logger.warning("FCM send to device %s failed: %s", device.pk, failure)
        return False
    (result,) = response.responses
    if not result.success:
        logger.warning("FCM refused device %s: %s", device.pk, result.exception.code)
    return result.success


def _firebase_app() -> firebase_admin.App:
    """The default Firebase app (the library sends with it), made on first use from
    ``FCM_CREDENTIALS_FILE`` and ``FCM_PROJECT_ID`` (empty: the service account's)."""
    try:
        return firebase_admin.get_app()
    except ValueError:
        options = {"projectId": settings.FCM_PROJECT_ID} if settings.FCM_PROJECT_ID else None
        certificate = credentials.Certificate(settings.FCM_CREDENTIALS_FILE)
        return firebase_admin.initialize_app(certificate, options)


def _send_apns(device, message: dict, data: dict) -> bool:
    """One iPhone: True when APNs took it. The alert shows title and body; the data sit
    beside ``aps`` (``table`` as a number); ``thread-id`` and ``apns-collapse-id`` group
    and replace by table."""
    apns = settings.PUSH_NOTIFICATIONS_SETTINGS
    try:
        with open(apns["APNS_AUTH_KEY_PATH"], encoding="ascii") as key_file:
            key = key_file.read()  # aioapns 4 takes the key itself, not its path
        result = device.send_message(
            Alert(title=message["title"], body=message["body"]),
            creds=TokenCredentials(
                key=key, key_id=apns["APNS_AUTH_KEY_ID"], team_id=apns["APNS_TEAM_ID"]
            ),
            sound="default",
            extra={**data, "table": int(data["table"]) if data["table"] else None},
            thread_id=message["tag"],
            collapse_id=message["tag"],
            expiration=int(time.time()) + settings.PUSH_TTL_SECONDS,
        )
    except (APNSError, OSError) as failure:  # refused (marked inactive), or unreachable
        logger.warning("APNs send to device %s failed: %s", device.pk, failure)
        return False
    return result == {"results": ["Success"]}
