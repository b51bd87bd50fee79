"""The app config of django-push-notifications (the native apps' FCM and APNs device
tokens, ``notices.devices``), named in ``INSTALLED_APPS`` instead of the library itself.
Kept out of ``notices/apps.py``: a second config there would stop Django from picking
``NoticesConfig`` on its own."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushNotificationsConfig(AppConfig):
    """django-push-notifications with the primary key its own migrations made: the
    project's ``BigAutoField`` default would otherwise ask for a migration inside the
    library."""

    default_auto_field = "django.db.models.AutoField"
    name = "push_notifications"
    label = "push_notifications"
    verbose_name = _("Dispositivos móviles")

    def ready(self):
        """The two device models under Spanish names (English in locale/en), as the admin
        shows them: the library names them in English ("FCM device") and Django's
        plural would add an "s" to the last word ("dispositivo FCMs"). Only the runtime
        names change: migrations read a model's ``Meta`` as written, so none is asked
        for."""
        names = {
            "GCMDevice": (_("dispositivo FCM"), _("dispositivos FCM")),
            "APNSDevice": (_("dispositivo APNs"), _("dispositivos APNs")),
        }
        for model_name, (one, many) in names.items():
            meta = self.get_model(model_name)._meta
            meta.verbose_name, meta.verbose_name_plural = one, many
