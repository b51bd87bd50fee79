from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Mesas")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The services record events (tables.events); this app's subscribers queue the
        # bot's turn and the analysis (tables.tasks, registered with Celery by that
        # import) in every process that delivers events (the web one included, not only
        # the worker). Django's place for such registrations is ready().
        from accounts import hooks
        from tables import departures, subscribers

        subscribers.register()
        # Deleting an account abandons the player's tables and keeps their seats as
        # «jugador eliminado»; the data download lists their tables (accounts.hooks).
        hooks.add_deletion_step("leave", departures.abandon_every_table)
        hooks.add_deletion_step("let_go", departures.let_go_of_seats)
        hooks.add_export_part("tables", departures.tables_exported)
