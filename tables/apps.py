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
        from accounts import hooks
        from tables import departures, tasks  # noqa: F401

        # Deleting an account abandons the player's tables and keeps their seats as
        # «jugador eliminado»; the data download lists their tables (accounts.hooks).
        hooks.add_deletion_step("leave", departures.abandon_every_table)
        hooks.add_deletion_step("let_go", departures.let_go_of_seats)
        hooks.add_export_part("tables", departures.tables_exported)
