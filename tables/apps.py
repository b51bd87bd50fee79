from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Mesas")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The service layer queues tasks by name (tables.services.outbox): register them
        # in every process, the web one included, not only where Celery autodiscovers
        # them (the worker). Django's place for such imports is ready().
        from tables import tasks  # noqa: F401
