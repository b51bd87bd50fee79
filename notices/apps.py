from django.apps import AppConfig


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = "Avisos"

    def ready(self) -> None:
        # The outbox queues notices' tasks by name (tables.services.outbox): the Celery
        # registry must know them in every process, the web one included.
        from notices import moderation_tasks, tasks  # noqa: F401
