from django.apps import AppConfig


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = "Avisos"

    def ready(self) -> None:
        # The outbox queues notices' tasks by name (tables.services.outbox): the Celery
        # registry must know them (moderation_tasks, tasks) in every process, the web one
        # included.
        from accounts import hooks, time_zones
        from notices import departures, moderation_tasks, selectors, tasks  # noqa: F401

        # A player's zone is saved with their notice preferences; every app reads it
        # through accounts.time_zones, which may not import this app.
        time_zones.read_zones_with(selectors.saved_time_zone)
        # /me counts the unread notices; a deleted player's name leaves the others'.
        hooks.add_me_fact("unread_notifications", selectors.unread_count)
        hooks.add_deletion_step("forget", departures.unname_deleted_player)
