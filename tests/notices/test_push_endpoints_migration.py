"""Migration 0009 drops the Web Push subscriptions stored before the push-service rule
whose endpoint the sender may not call (loopback, the metadata address, ``http://``, a
look-alike host, a port or user-info of their own) and writes the others in their one
spelling, so that ``DELETE`` finds them; of one endpoint spelled twice the newest stays."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from notices.models import PushSubscription

pytestmark = pytest.mark.django_db

migration = importlib.import_module("notices.migrations.0009_push_endpoints_of_push_services")

KEYS = {"p256dh": "B" * 87, "auth": "A" * 22}


def _stored(user, endpoint: str, age_minutes: int = 0) -> PushSubscription:
    created = timezone.now() - timedelta(minutes=age_minutes)
    return PushSubscription.objects.create(user=user, endpoint=endpoint, created_at=created, **KEYS)


def test_the_rows_off_the_push_services_go_and_the_rest_is_respelled(alice, bob, mallory):
    for endpoint in (
        "http://127.0.0.1:9911/x",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost:6390/",
        "http://[::1]:9911/",
        "ftp://127.0.0.1/",
        "https://fcm.googleapis.com.example.org/fcm/send/x",
        "https://fcm.googleapis.com:8443/fcm/send/x",
        "http://fcm.googleapis.com/fcm/send/x",
    ):
        _stored(mallory, endpoint)
    kept = _stored(alice, "https://fcm.googleapis.com/fcm/send/alice-phone")
    respelled = _stored(bob, "https://Updates.Push.Services.Mozilla.com.:443/wpush/v2/bob")
    _stored(alice, "https://WEB.push.apple.com/old-spelling", age_minutes=10)
    newest = _stored(bob, "https://web.push.apple.com/old-spelling")

    assert migration.keep_push_services_only(apps, None) == 9

    assert sorted(PushSubscription.objects.values_list("pk", "user__username", "endpoint")) == [
        (kept.pk, "alice", "https://fcm.googleapis.com/fcm/send/alice-phone"),
        (respelled.pk, "bob", "https://updates.push.services.mozilla.com/wpush/v2/bob"),
        (newest.pk, "bob", "https://web.push.apple.com/old-spelling"),
    ]
    assert migration.keep_push_services_only(apps, None) == 0  # again: nothing to do
