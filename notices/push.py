"""The Web Push channel (RFC 8030 / 8291 / 8292), fed from ``Notification`` rows whose
``push`` is ``pending``: each of the player's devices (``PushSubscription``) gets the
notice's sentence, encrypted to the device's keys (``aes128gcm``) by ``pywebpush`` and
signed with the site's VAPID key. A push service that answers 404 or 410 has dropped the
subscription: it is deleted. Nothing is pushed while the player is at the table, nor in
their quiet hours (the deadline reminder excepted): those wait for the beat task; nor
once they saw what it tells.

Without ``VAPID_PUBLIC_KEY`` and ``VAPID_PRIVATE_KEY`` the channel is off: nothing is
pushed and the settings switch is hidden. ``manage.py vapid_keys`` prints a new pair.

The native apps' phones (FCM, APNs: ``notices.native``) get the same notice in the same
claimed delivery: one ``push`` state per notice covers every device of the player.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush
from requests import RequestException

from core import metrics
from notices import native, push_endpoints, selectors, services
from notices.email import in_quiet_hours
from notices.models import Notification, PushSubscription

logger = logging.getLogger(__name__)

Kind = Notification.Kind
State = Notification.Email

#: Push services answer these for a subscription that is gone (RFC 8030 §7.3).
GONE = (404, 410)


def configured() -> bool:
    """Whether Web Push is on (both VAPID keys are set)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def message_for(notice: Notification) -> dict:
    """What the device shows: ``title``, ``body`` (the notice's sentence in the player's
    language, e.g. "Te toca en la mesa 4: con ana, Nino"), ``url`` (the table's
    page, which the click opens) and ``tag`` (one notification per table on screen).
    Public facts only: never a tile."""
    with translation.override(notice.recipient.language or settings.LANGUAGE_CODE):
        body = selectors.describe(notice)
        title = str(translation.gettext("Dominó"))
    return {
        "title": title,
        "body": body,
        "url": f"/mesas/{notice.table_id}/",
        "tag": f"table-{notice.table_id}",
        "kind": notice.kind,
    }


def mark_wanted(notice: Notification) -> None:
    """Set a new notice's push state: ``pending`` when the player has a device and wants
    this kind pushed, else ``skipped`` or nothing. Whether they are at the table, or saw
    it, is decided when it goes (``deliver``)."""
    if not _has_device(notice.recipient_id):
        return
    wanted = services.preferences_for(notice.recipient).wants("push", notice.kind)
    notice.push = State.PENDING if wanted else State.SKIPPED
    notice.save(update_fields=["push"])


def deliver(notice_id: int, now: datetime | None = None) -> int:
    """Push notice ``notice_id`` to every device of its recipient (browsers, and phones
    through ``notices.native``), once (claimed ``sending`` first); returns to how many
    devices it went. In quiet hours (not for a
    reminder) it stays pending, for the beat task, and so while the player is at the table
    (from a look before it happened). A notice they saw since it happened
    (``services.notice_seen``), a "your turn" notice whose turn moved on and a rematch
    offer no longer waiting are ``skipped``. A
    gone subscription (404/410) is deleted; any other refusal is logged and that device
    skipped."""
    now = now or timezone.now()
    notice = (
        Notification.objects.filter(pk=notice_id, push=State.PENDING)
        .select_related("recipient", "table")
        .first()
    )
    if notice is None or not (configured() or native.platforms()):
        return 0
    preferences = services.preferences_for(notice.recipient)
    if notice.kind != Kind.REMINDER and in_quiet_hours(preferences, now):
        metrics.count_notice("push", "skipped-quiet")
        return 0
    stale = (
        notice.kind == Kind.YOUR_TURN
        and (notice.read_at is not None or str(notice.table.version) != notice.key)
    ) or (notice.kind == Kind.REMATCH_OFFERED and notice.table.status != "waiting")
    stale = stale or (notice.table_id is not None and services.notice_seen(notice))
    if not stale and services.present_until(notice, now):
        metrics.count_notice("push", "skipped-present")
        return 0  # at the table, from a look before it happened: the beat pushes it later
    with transaction.atomic():
        claimed = Notification.objects.filter(pk=notice.pk, push=State.PENDING).update(
            push=State.SKIPPED if stale else State.SENDING, push_claimed_at=now
        )
    if not claimed or stale:
        metrics.count_notice("push", "skipped", 1 if claimed else 0)
        return 0
    message = message_for(notice)
    data = json.dumps(message, ensure_ascii=False)
    sent = 0
    subscriptions = PushSubscription.objects.filter(user=notice.recipient_id)
    for subscription in list(subscriptions) if configured() else []:
        sent += _push(subscription, data, now)
        if sent == 1:  # taken: written at once, so a reclaimed claim is not pushed again
            services.push_accepted(notice.pk, now)
    phones = native.send(notice.recipient_id, message, notice.table_id)
    notice.push = State.SENT if sent or phones else State.FAILED
    metrics.count_notice("push", "sent" if sent or phones else "failed")
    went = [name for name, count in (("push", sent), ("native", phones)) if count]
    notice.channels = [*notice.channels, *went]
    notice.save(update_fields=["push", "channels"])
    return sent + phones


def _has_device(user_id: int) -> bool:
    """Whether user ``user_id`` has a browser (Web Push on) or a phone to push to."""
    browser = configured() and PushSubscription.objects.filter(user=user_id).exists()
    return browser or native.has_device(user_id)


class _NoRedirects(requests.Session):
    """A ``requests`` session that follows no redirect: a push service answers 201 (or an
    error), so a 3xx is a refusal (``WebPushException``), never a second address to call."""

    def request(self, method, url, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)


def _push(subscription: PushSubscription, data: str, now: datetime) -> int:
    """One device: 1 when the push service took it. An endpoint off the push services
    (``notices.push_endpoints``: a row stored before that rule) is not sent to; the request
    follows no redirect and waits ``WEB_PUSH_TIMEOUT_SECONDS`` at most to connect and as
    long for the answer."""
    if not push_endpoints.allowed(subscription.endpoint):
        logger.warning("push subscription %s is not a push service's: skipped", subscription.pk)
        return 0
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    wait = settings.WEB_PUSH_TIMEOUT_SECONDS
    try:
        with _NoRedirects() as session:
            webpush(
                subscription_info=info,
                data=data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=settings.PUSH_TTL_SECONDS,
                content_encoding="aes128gcm",
                timeout=(wait, wait),  # to connect, then for the answer
                requests_session=session,
            )
    except WebPushException as refused:
        status = getattr(refused.response, "status_code", None)
        if status in GONE:
            services.push_unsubscribe(endpoint=subscription.endpoint)
            logger.info("push subscription %s gone (%s): deleted", subscription.pk, status)
        else:
            logger.warning("push to subscription %s refused: %s", subscription.pk, status)
        return 0
    except RequestException:  # the push service cannot be reached: this device misses it
        logger.warning("push service of subscription %s unreachable", subscription.pk)
        return 0
    services.push_delivered(subscription_id=subscription.pk, now=now)
    return 1
