"""The app config of django-push-notifications (the native apps' FCM and APNs device
tokens, ``notices.devices``), named in ``INSTALLED_APPS`` instead of the library itself.
Kept out of ``notices/apps.py``: a second config there would stop Django from picking
``NoticesConfig`` on its own."""

from django.apps import AppConfig


class PushNotificationsConfig(AppConfig):
    """django-push-notifications with the primary key its own migrations made: the
    project's ``BigAutoField`` default would otherwise ask for a migration inside the
    library."""

    default_auto_field = "django.db.models.AutoField"
    name = "push_notifications"
    label = "push_notifications"
    verbose_name = "Dispositivos móviles"
