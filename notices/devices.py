"""The native apps' device tokens (FCM for Android, and iOS through Firebase; APNs for
iOS), kept in django-push-notifications' ``GCMDevice`` and ``APNSDevice`` rows: every
write to them goes through here (the API registers and forgets, ``notices.native``
forgets a token the provider refused).

One row per token (``PUSH_NOTIFICATIONS_SETTINGS["UNIQUE_REG_ID"]``: a unique column): a
token registered again, by its owner or by whoever is signed in on that phone now, moves
to that person and is active again.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from push_notifications.models import APNSDevice, GCMDevice

#: The platforms a client names (``"fcm"`` or ``"apns"``) and their models.
MODELS = {"fcm": GCMDevice, "apns": APNSDevice}


def register(*, user, platform: str, token: str, name: str = "") -> GCMDevice | APNSDevice:
    """Record ``user``'s device: ``platform`` is ``"fcm"`` or ``"apns"`` (else
    ``KeyError``), ``token`` the provider's registration token (the API checks its shape),
    ``name`` what the person calls the phone (empty: the name it had, if it was theirs).
    The same token again updates that row, whoever held it. Safe against two
    registrations of one token at once (the unique column, and the row lock)."""
    try:
        return _register_once(MODELS[platform], user=user, token=token, name=name)
    except IntegrityError:  # the same token was inserted meanwhile: now a row to update
        return _register_once(MODELS[platform], user=user, token=token, name=name)


def _register_once(model, *, user, token: str, name: str) -> GCMDevice | APNSDevice:
    with transaction.atomic():
        device = model.objects.select_for_update().filter(registration_id=token).first()
        if device is None:
            device = model(registration_id=token)
        kept = device.name if device.user_id == user.pk else None  # not the last owner's
        device.user = user
        device.name = name or kept
        device.active = True
        if model is GCMDevice:
            device.cloud_message_type = "FCM"
        device.save()
    return device


def forget(*, platform: str, token: str, user=None) -> int:
    """Delete the ``platform`` device with ``token`` (only ``user``'s, when given: the
    API, so nobody deletes another person's phone). Returns how many rows went (0 or 1)."""
    rows = MODELS[platform].objects.filter(registration_id=token)
    if user is not None:
        rows = rows.filter(user=user)
    deleted, _by_model = rows.delete()
    return deleted


def forget_refused(*, platform: str, device_ids: list[int]) -> int:
    """Delete the ``platform`` devices among ``device_ids`` that django-push-notifications
    marked inactive after a send (the provider answered that the token is unregistered or
    invalid). Returns how many rows went."""
    deleted, _by_model = MODELS[platform].objects.filter(pk__in=device_ids, active=False).delete()
    return deleted


def of(user_id: int) -> list[tuple[str, GCMDevice | APNSDevice]]:
    """``(platform, device)`` for each active device of user ``user_id``, oldest first."""
    return [
        (platform, device)
        for platform, model in MODELS.items()
        for device in model.objects.filter(user_id=user_id, active=True).order_by("pk")
    ]


def has_any(user_id: int, platforms: tuple[str, ...]) -> bool:
    """Whether user ``user_id`` has an active device on one of ``platforms``."""
    return any(
        MODELS[platform].objects.filter(user_id=user_id, active=True).exists()
        for platform in platforms
    )
